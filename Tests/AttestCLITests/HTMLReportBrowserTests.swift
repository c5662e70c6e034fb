import Foundation
import Testing

/// The HTML report in a real browser (headless Chromium, from Debian's `chromium` or a Chrome/Chromium install on
/// macOS): the page loads with no network, its counts match the report, and its filters and rule links work when
/// clicked. A screenshot of the failing cases is left at .build/html-report/report.png for people to look at.
@Suite(.serialized) struct HTMLReportBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let output = root.appendingPathComponent(".build/html-report")

    /// The browser: $CHROMIUM, else the first of the usual names and install paths that exists.
    static func browser() throws -> URL {
        var candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                          "/Applications/Chromium.app/Contents/MacOS/Chromium",
                          "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"]
        if let configured = ProcessInfo.processInfo.environment["CHROMIUM"] { candidates.insert(configured, at: 0) }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found.map(URL.init(fileURLWithPath:)),
                            "no headless browser: install Debian's chromium (scripts/setup does) or set CHROMIUM")
    }

    /// Runs the browser headless on `page` with `arguments`, killed past 120 s; returns stdout.
    static func headless(_ arguments: [String], page: URL) throws -> String {
        let profile = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = try browser()
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                             "--user-data-dir=\(profile.path)"] + arguments + [page.absoluteString]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        try #require(process.terminationReason == .exit && process.terminationStatus == 0, "the browser failed or timed out")
        return String(decoding: data, as: UTF8.self)
    }

    /// Clicks through the filters in the page itself and writes what it saw into #test-results.
    static let probeScript = """
    <script>
    (function(){
    function visible(){return document.querySelectorAll('details.case:not(.hidden)').length;}
    function rows(){return document.querySelectorAll('tr.rule-row:not(.hidden)').length;}
    function choose(id,value){var s=document.getElementById(id);s.value=value;s.dispatchEvent(new Event('change'));}
    var out={cases:document.querySelectorAll('details.case').length,rows:rows(),
      findings:document.getElementById('count-findings').textContent,verdict:document.getElementById('verdict').textContent,
      shownAtStart:visible(),external:document.querySelectorAll('[src],link[href]').length};
    choose('filter-outcome','finding');out.findingCases=visible();out.findingRows=rows();
    out.hash=location.hash;
    choose('filter-level','POLICY');out.findingPolicy=visible();
    document.getElementById('filter-reset').click();out.afterReset=visible();
    choose('filter-level','POLICY');out.policyLevel=visible();
    document.getElementById('filter-reset').click();
    document.querySelector('a.rule-link[data-rule="appattest.nonce"]').click();out.ruleLink=visible();
    document.getElementById('filter-reset').click();
    document.querySelector('a.card[data-filter="outcome=finding"]').click();out.findingCard=visible();out.cardHash=location.hash;
    document.querySelector('a.card[data-filter="level=MUST&outcome=finding"]').click();out.mustCard=visible();
    document.querySelector('a.card[data-filter="proof=outcome"]').click();out.outcomeProofCard=visible();
    document.getElementById('filter-reset').click();
    var open=document.querySelector('details.case.finding');
    out.reproduce=open?open.querySelector('pre.command').textContent:'';
    out.evidence=document.querySelectorAll('details.evidence').length;
    out.certificate=document.body.textContent.indexOf('X.509 certificate')>=0;
    window.scrollTo(0,0);
    out.firstFindingTop=open?open.getBoundingClientRect().top:-1;out.viewportHeight=window.innerHeight;
    out.viewportWidth=window.innerWidth;out.pageWidth=document.documentElement.scrollWidth;
    out.firstListed=document.querySelector('details.case').dataset.outcome;
    var pre=document.createElement('pre');pre.id='test-results';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
    if(window.parent!==window){window.parent.postMessage(JSON.stringify(out),'*');}
    })();
    </script>
    """

    /// Loads `page` (the report with the probe) in a `width`x`height` viewport and returns what the probe saw. The
    /// viewport is an iframe of exactly that size in a frame page (a headless window's size includes its chrome and
    /// has a 500 px minimum), and the probe posts its results up to the frame page, whose DOM the browser dumps.
    static func probe(_ page: URL, width: Int, height: Int) throws -> [String: Any] {
        let frame = page.deletingLastPathComponent().appendingPathComponent("frame-\(width)x\(height).html")
        try """
        <!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;display:block}</style></head><body>
        <iframe src="\(page.lastPathComponent)" width="\(width)" height="\(height)"></iframe>
        <script>window.addEventListener('message',function(m){var pre=document.createElement('pre');pre.id='test-results';
        pre.textContent=m.data;document.body.appendChild(pre);});</script></body></html>
        """.write(to: frame, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: frame) }
        let dom = try headless(["--dump-dom", "--virtual-time-budget=5000", "--window-size=\(max(width, 800) + 100),\(height + 300)"], page: frame)
        let start = try #require(dom.range(of: #"<pre id="test-results">"#), "no probe results in the DOM:\n\(dom.suffix(2000))")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
    }

    @Test func theReportWorksInABrowser() throws {
        try FileManager.default.createDirectory(at: Self.output, withIntermediateDirectories: true)
        let page = Self.output.appendingPathComponent("report.html")
        try? FileManager.default.removeItem(at: page)
        let run = try CommandLineTests.run("run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest",
                                           "--format", "html", "--out", page.path, "--progress", "never")
        #expect(run.status == 1, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for fetch in ["<script src", "<link", "<img", "url(", "@import"] {
            #expect(!html.contains(fetch), "the page fetches nothing: \(fetch)")
        }

        let probed = Self.output.appendingPathComponent("report-probe.html")
        try html.replacingOccurrences(of: "</body>", with: Self.probeScript + "</body>").write(to: probed, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: probed) }
        let seen = try Self.probe(probed, width: 1366, height: 900)
        #expect(seen["cases"] as? Int == 41)
        #expect(seen["shownAtStart"] as? Int == 41)
        #expect(seen["findings"] as? String == "5")
        #expect(seen["verdict"] as? String == "FAIL: 5 findings")
        #expect(seen["external"] as? Int == 0)
        #expect(seen["findingCases"] as? Int == 5, "\(seen)")
        #expect(seen["findingRows"] as? Int == 1, "only the appattest.nonce row stays: \(seen)")
        #expect(seen["hash"] as? String == "#outcome=finding")
        #expect(seen["findingPolicy"] as? Int == 0)
        #expect(seen["afterReset"] as? Int == 41)
        // App Attest's CBOR rules are POLICY, as its structure and hardening rules are: the level filter shows exactly those.
        let policy = html.split(separator: "\n").filter { $0.hasPrefix("<details class=\"case") && $0.contains(#"data-level="POLICY""#) }.count
        #expect(policy > 0 && seen["policyLevel"] as? Int == policy, "\(seen)")
        #expect(seen["ruleLink"] as? Int == 5, "\(seen)")
        #expect((seen["reproduce"] as? String)?.hasPrefix("attest-harness forge --case appattest.nonce.") == true, "\(seen)")
        #expect(seen["evidence"] as? Int == 41)
        #expect(seen["certificate"] as? Bool == true)
        // The summary cards are filter links.
        #expect(seen["findingCard"] as? Int == 5 && seen["cardHash"] as? String == "#outcome=finding", "\(seen)")
        #expect(seen["mustCard"] as? Int == 5, "\(seen)")
        #expect(seen["outcomeProofCard"] as? Int == 1, "the one valid case: \(seen)")
        // The page leads with findings: listed first, the first of them above the fold of a 1366x900 laptop screen.
        #expect(seen["firstListed"] as? String == "finding", "\(seen)")
        #expect(seen["viewportHeight"] as? Int == 900, "the probe saw the window size asked for: \(seen)")
        let top = try #require(seen["firstFindingTop"] as? Double ?? (seen["firstFindingTop"] as? Int).map(Double.init))
        #expect(top >= 0 && top < 900 - 100, "the first finding's top at \(top) px is above the fold with room to read it")
        #expect((seen["pageWidth"] as? Int ?? .max) <= 1366, "\(seen)")

        // A 390 px phone: no horizontal scrolling, the matrix included.
        let phone = try Self.probe(probed, width: 390, height: 844)
        #expect(phone["viewportWidth"] as? Int == 390, "\(phone)")
        #expect((phone["pageWidth"] as? Int ?? .max) <= 390, "the page is \(phone["pageWidth"] ?? "?") px wide at 390 px")
        #expect(phone["findingCases"] as? Int == 5, "the filters work on a phone too: \(phone)")

        // The screenshot people look at: the failing cases, filtered through the page's own link syntax.
        let screenshot = Self.output.appendingPathComponent("report.png")
        try? FileManager.default.removeItem(at: screenshot)
        var failing = URLComponents(url: page, resolvingAgainstBaseURL: false)
        failing?.fragment = "outcome=failing"
        _ = try Self.headless(["--screenshot=\(screenshot.path)", "--window-size=1400,1800", "--hide-scrollbars"],
                              page: try #require(failing?.url))
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(png.count > 20_000, "a page with content, not a blank image: \(png.count) bytes")
    }
}
