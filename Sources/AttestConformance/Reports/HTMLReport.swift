import Foundation

/// One self-contained HTML page (inline style and script, nothing fetched): the summary, a matrix of rules by
/// verdict, filters by family, level and outcome, and per case its explanation, reproduce commands and decoded
/// evidence. Every value from the report or the evidence is escaped; the script only toggles visibility.
struct HTMLReport {
    let report: RunReport
    let evidence: [String: [EvidenceNode]]

    /// The outcome a case shows under: its status, or `known`/`fixed` against a baseline.
    static func outcome(_ result: CaseResult) -> String {
        if result.baseline == .known { return "known" }
        if result.baseline == .fixed { return "fixed" }
        return result.status.rawValue
    }

    static let outcomes = ["pass", "finding", "crash", "hang", "unconfirmed", "masked", "error", "unsupported", "acceptable", "known", "fixed"]

    var text: String {
        let groups = RuleGroup.groups(report)
        let families = Set(report.results.compactMap { $0.family?.rawValue }).sorted()
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <title>attest-harness: \(e(report.verifier)) under \(e(report.profile))</title>
        <style>\(Self.style)</style></head><body>
        <header><h1>attest-harness report</h1>
        <p class="meta"><b>\(e(report.verifier))</b> under profile <b>\(e(report.profile))</b> · seed \(report.seed) · catalogue \(e(report.catalogue ?? "unrecorded")) · attest-harness \(e(report.harnessVersion ?? ""))\(report.startedAt.map { " · started " + e(SARIFReport.timestamp($0)) } ?? "")\(report.durationSeconds.map { String(format: " · %.1f s", $0) } ?? "")</p>
        <p id="verdict" class="verdict exit\(report.exitCode)">\(e(report.verdictLine))</p>
        </header>
        """
        html += summary
        html += "<h2>Rules by verdict</h2>\n<table id=\"matrix\"><thead><tr><th>rule</th><th>level</th><th>cases</th>"
            + Self.outcomes.map { "<th>\($0)</th>" }.joined() + "<th>statement</th></tr></thead><tbody>\n"
        for group in groups {
            var counts: [String: Int] = [:]
            for result in group.results { counts[Self.outcome(result), default: 0] += 1 }
            let failing = group.results.contains { $0.status.isFailure && $0.baseline != .known }
            html += "<tr class=\"rule-row\(failing ? " failing" : "")\" data-rule=\"\(e(group.title))\" data-level=\"\(group.level?.rawValue ?? "valid")\">"
                + "<td><a href=\"#\" class=\"rule-link\" data-rule=\"\(e(group.title))\"><code>\(e(group.title))</code></a></td>"
                + "<td>\(group.level?.rawValue ?? "")</td><td>\(group.results.count)</td>"
                + Self.outcomes.map { outcome in
                    let count = counts[outcome] ?? 0
                    return "<td class=\"cell \(count == 0 ? "zero" : outcome)\">\(count == 0 ? "" : String(count))</td>"
                }.joined()
                + "<td>\(e(group.statement ?? "valid cases: every conforming verifier accepts them"))</td></tr>\n"
        }
        html += "</tbody></table>\n"
        html += """
        <h2>Cases</h2>
        <form id="filters" onsubmit="return false">
        <label>family <select id="filter-family"><option value="">all</option>\(families.map { "<option>\(e($0))</option>" }.joined())</select></label>
        <label>level <select id="filter-level"><option value="">all</option>\(RuleLevel.allCases.map { "<option>\($0.rawValue)</option>" }.joined())<option value="valid">valid</option></select></label>
        <label>outcome <select id="filter-outcome"><option value="">all</option><option value="failing">failing</option>\(Self.outcomes.map { "<option>\($0)</option>" }.joined())</select></label>
        <label>rule <input id="filter-rule" type="search" placeholder="rule or case id"></label>
        <button type="button" id="filter-reset">reset</button>
        <span id="visible-count"></span>
        </form>
        <div id="cases">

        """
        for result in report.results { html += card(result) }
        html += "</div>\n<script>\(Self.script)</script>\n</body></html>\n"
        return html
    }

    private var summary: String {
        var cells: [(String, String, Int)] = [
            ("cases", "count-cases", report.results.count),
            ("passed", "count-pass", report.results.filter { $0.status == .pass }.count),
            ("findings", "count-findings", report.findings.count),
            ("crashes", "count-crashes", report.crashes.count),
            ("unconfirmed", "count-unconfirmed", report.unconfirmed.count),
            ("masked", "count-masked", report.masked.count),
            ("errors", "count-errors", report.errors.count),
            ("unsupported", "count-unsupported", report.unsupported.count),
            ("acceptable", "count-acceptable", report.acceptable.count),
            ("proven by reason and control", "count-proof-reason-and-control", report.passes(provenBy: .reasonAndControl).count),
            ("proven by control only", "count-proof-control", report.passes(provenBy: .control).count),
            ("proven by outcome", "count-proof-outcome", report.passes(provenBy: .outcome).count),
        ]
        for level in RuleLevel.allCases {
            cells.append(("\(level.rawValue) findings", "count-\(level.rawValue.lowercased())",
                          report.findings.filter { report.level(of: $0) == level }.count))
        }
        if let baseline = report.baseline {
            cells += [("new", "count-new", baseline.new.count), ("known", "count-known", baseline.known.count),
                      ("fixed", "count-fixed", baseline.fixed.count)]
        }
        return "<section id=\"summary\">" + cells.map { label, id, count in
            "<div class=\"card\(count == 0 ? " zero" : "")\"><span class=\"number\" id=\"\(id)\">\(count)</span><span class=\"label\">\(e(label))</span></div>"
        }.joined() + "</section>\n<p class=\"tally\">\(e(report.tally))</p>\n"
            + report.controlNotes.map { "<p class=\"control-note\">\(e($0))</p>\n" }.joined()
    }

    private func card(_ result: CaseResult) -> String {
        let outcome = Self.outcome(result)
        let level = result.rule == nil ? "valid" : report.level(of: result).rawValue
        var body = ""
        if result.status != .pass || result.baseline == .fixed {
            body += "<ul class=\"explanation\">" + result.explanation(in: report).map { line in
                if line.hasPrefix("reproduce: ") || line.hasPrefix("request: ") {
                    let (head, command) = line.hasPrefix("request: ") ? ("request", line.dropFirst(9)) : ("reproduce", line.dropFirst(11))
                    return "<li>\(head): <pre class=\"command\">\(e(String(command)))</pre></li>"
                }
                return "<li>\(e(line))</li>"
            }.joined() + "</ul>"
        } else {
            body += "<p>\(e(result.description ?? ""))</p>"
            if let rule = report.rule(result.rule) {
                body += "<p>rule <code>\(e(rule.id.rawValue))</code> [\(rule.level.rawValue)]: \(e(rule.statement)) (\(e(rule.source)))</p>"
            }
        }
        if let nodes = evidence[result.caseId], !nodes.isEmpty {
            body += "<details class=\"evidence\"><summary>decoded evidence</summary>" + tree(nodes) + "</details>"
        }
        let expected = result.status == .finding ? " · expected \(e(result.expectedText)), got \(e(result.actualText))" : ""
        return """
        <details class="case \(outcome)" id="case-\(e(result.caseId))" data-family="\(e(result.family?.rawValue ?? ""))" data-level="\(level)" data-outcome="\(outcome)" data-rule="\(e(result.rule?.rawValue ?? "valid"))" data-id="\(e(result.caseId))"\(result.status.isFailure ? " open" : "")>
        <summary><span class="badge \(outcome)">\(outcome)</span> <code>\(e(result.caseId))</code> <span class="rule">\(e(result.rule?.rawValue ?? "valid"))</span> <span class="level">\(level)</span>\(expected)</summary>
        \(body)
        </details>

        """
    }

    private func tree(_ nodes: [EvidenceNode]) -> String {
        "<ul class=\"tree\">" + nodes.map { node in
            "<li><span class=\"key\">\(e(node.label))</span>" + (node.value.map { " <span class=\"value\">\(e($0))</span>" } ?? "")
                + (node.children.isEmpty ? "" : tree(node.children)) + "</li>"
        }.joined() + "</ul>"
    }

    /// HTML-escaped text (control characters made visible first), for element content and double-quoted attributes.
    private func e(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in DisplayText.safe(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    static let style = """
    body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#1b1f24;background:#fff}
    h1{font-size:1.5em;margin:0}h2{font-size:1.15em;margin-top:1.6em}
    .meta{color:#57606a}.verdict{font-weight:bold;font-size:1.1em;padding:.4em .7em;border-radius:4px;display:inline-block}
    .exit0{background:#dafbe1;color:#116329}.exit1{background:#ffebe9;color:#a40e26}.exit2{background:#fff8c5;color:#7d4e00}
    #summary{display:flex;flex-wrap:wrap;gap:.6em}.card{border:1px solid #d0d7de;border-radius:6px;padding:.5em .9em;min-width:6em}
    .card .number{display:block;font-size:1.6em;font-weight:bold}.card.zero{opacity:.55}
    #count-findings:not(:empty),#count-crashes,#count-must,#count-new{color:#a40e26}.card .label{color:#57606a}
    table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eaeef2;padding:.25em .5em;text-align:left;vertical-align:top}
    th{position:sticky;top:0;background:#f6f8fa}td.cell{text-align:center;font-weight:bold;min-width:3.5em}
    .cell.pass{background:#dafbe1}.cell.finding,.cell.hang,.cell.crash{background:#ffcecb}.cell.error{background:#fff1a8}
    .cell.unconfirmed,.cell.masked{background:#ddf4ff}.cell.acceptable{background:#eaeef2}
    .cell.unsupported{background:#eaeef2}.cell.known{background:#ffe2b3}.cell.fixed{background:#b4f0c4}
    tr.failing td:first-child{border-left:4px solid #cf222e}
    #filters{display:flex;flex-wrap:wrap;gap:1em;align-items:center;padding:.5em 0;position:sticky;top:0;background:#fff}
    details.case{border:1px solid #d0d7de;border-radius:6px;margin:.35em 0;padding:.3em .6em}
    details.case.finding,details.case.hang,details.case.crash{border-color:#cf222e}details.case.error{border-color:#bf8700}
    details.case.unconfirmed,details.case.masked{border-color:#0969da}
    .badge{display:inline-block;min-width:6.5em;text-align:center;border-radius:3px;font-size:.85em;font-weight:bold;padding:0 .4em}
    .badge.pass{background:#dafbe1}.badge.finding,.badge.hang,.badge.crash{background:#cf222e;color:#fff}.badge.error{background:#bf8700;color:#fff}
    .badge.unconfirmed,.badge.masked{background:#ddf4ff}.badge.acceptable{background:#eaeef2}
    .badge.unsupported{background:#eaeef2}.badge.known{background:#ffe2b3}.badge.fixed{background:#b4f0c4}
    .rule{color:#0550ae}.level{color:#57606a;font-size:.85em}
    pre.command{background:#f6f8fa;padding:.4em;white-space:pre-wrap;word-break:break-all;margin:.2em 0}
    ul.tree{list-style:none;padding-left:1.1em;border-left:1px dotted #d0d7de;margin:.1em 0}
    .key{color:#6639ba;font-family:ui-monospace,monospace}.value{font-family:ui-monospace,monospace;word-break:break-all}
    .hidden{display:none}
    """

    static let script = """
    (function(){
    var cases=[].slice.call(document.querySelectorAll('details.case'));
    var rows=[].slice.call(document.querySelectorAll('tr.rule-row'));
    var family=document.getElementById('filter-family'),level=document.getElementById('filter-level');
    var outcome=document.getElementById('filter-outcome'),rule=document.getElementById('filter-rule');
    var failing={finding:1,hang:1,crash:1,error:1};
    function apply(){
      var shown=0,f=family.value,l=level.value,o=outcome.value,r=rule.value.trim().toLowerCase();
      var rulesShown={};
      // A whole rule id (what a rule link sets) selects that rule alone; other text matches rule or case ids.
      var exact=rows.some(function(row){return row.dataset.rule.toLowerCase()===r;});
      cases.forEach(function(c){
        var d=c.dataset;
        var ok=(!f||d.family===f)&&(!l||d.level===l)&&(!o||(o==='failing'?failing[d.outcome]===1:d.outcome===o))
          &&(!r||(exact?d.rule.toLowerCase()===r:(d.rule.toLowerCase().indexOf(r)>=0||d.id.toLowerCase().indexOf(r)>=0)));
        c.classList.toggle('hidden',!ok);if(ok){shown++;rulesShown[d.rule]=1;}
      });
      rows.forEach(function(row){row.classList.toggle('hidden',!rulesShown[row.dataset.rule]);});
      document.getElementById('visible-count').textContent=shown+' of '+cases.length+' cases shown';
      var state=[['family',f],['level',l],['outcome',o],['rule',r]].filter(function(p){return p[1];})
        .map(function(p){return p[0]+'='+encodeURIComponent(p[1]);}).join('&');
      if(history.replaceState){history.replaceState(null,'',state?'#'+state:location.pathname+location.search);}
    }
    // The filters survive a reload and travel in a link: report.html#outcome=failing&level=MUST.
    location.hash.replace(/^#/,'').split('&').forEach(function(pair){
      var kv=pair.split('='),v='';
      try{v=decodeURIComponent(kv[1]||'');}catch(err){return;}
      var el={family:family,level:level,outcome:outcome,rule:rule}[kv[0]];if(el){el.value=v;}
    });
    [family,level,outcome].forEach(function(s){s.addEventListener('change',apply);});
    rule.addEventListener('input',apply);
    document.getElementById('filter-reset').addEventListener('click',function(){family.value='';level.value='';outcome.value='';rule.value='';apply();});
    [].slice.call(document.querySelectorAll('a.rule-link')).forEach(function(a){
      a.addEventListener('click',function(ev){ev.preventDefault();rule.value=a.dataset.rule;apply();
        document.getElementById('filters').scrollIntoView();});
    });
    apply();
    })();
    """
}
