import Foundation

/// One self-contained HTML page (inline style and script, nothing fetched) that leads with what failed: the verdict,
/// summary cards that are filter links, then the cases with findings, crashes, hangs and unconfirmed refusals first
/// (each with its explanation, reproduce commands and decoded evidence), then the matrix of rules by verdict. Filters
/// by family, level, outcome, proof and baseline travel in the URL fragment. It reads without horizontal scrolling
/// down to a 390 px phone: the matrix shows only the outcomes that occur and becomes one block per rule on narrow
/// screens. Every value from the report or the evidence is escaped; the script only toggles visibility.
package struct HTMLReport {
    let report: RunReport
    let evidence: [String: [EvidenceNode]]

    /// The outcome a case shows under: its status, or `known`/`fixed` against a baseline.
    static func outcome(_ result: CaseResult) -> String {
        if result.baseline == .known { return "known" }
        if result.baseline == .fixed { return "fixed" }
        return result.status.rawValue
    }

    static let outcomes = ["pass", "finding", "crash", "hang", "unconfirmed", "masked", "error", "unsupported", "acceptable", "known", "fixed"]

    /// The order cases are listed in: what a reader must act on first, passes last; the catalogue's order within.
    static let listingOrder = ["finding", "hang", "crash", "unconfirmed", "masked", "error", "known", "fixed", "acceptable", "unsupported", "pass"]

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
        let failing = report.results.filter { $0.status.isFailure || $0.status.isUnproven }.count
        html += """
        <h2 id="cases-heading">Cases\(failing > 0 ? ", the \(failing) failing or unproven first" : "")</h2>
        <form id="filters" onsubmit="return false">
        <label>family <select id="filter-family"><option value="">all</option>\(families.map { "<option>\(e($0))</option>" }.joined())</select></label>
        <label>level <select id="filter-level"><option value="">all</option>\(RuleLevel.allCases.map { "<option>\($0.rawValue)</option>" }.joined())<option value="valid">valid</option></select></label>
        <label>outcome <select id="filter-outcome"><option value="">all</option><option value="failing">failing</option>\(Self.outcomes.map { "<option>\($0)</option>" }.joined())</select></label>
        <label>proof <select id="filter-proof"><option value="">all</option>\(CaseResult.Proof.allCases.map { "<option>\($0.rawValue)</option>" }.joined())</select></label>
        \(report.baseline == nil ? "" : "<label>baseline <select id=\"filter-baseline\"><option value=\"\">all</option><option>new</option><option>known</option><option>fixed</option></select></label>")
        <label>rule <input id="filter-rule" type="search" placeholder="rule or case id"></label>
        <button type="button" id="filter-reset">reset</button>
        <span id="visible-count"></span>
        </form>
        <div id="cases">

        """
        let rank = Dictionary(uniqueKeysWithValues: Self.listingOrder.enumerated().map { ($1, $0) })
        let listed = report.results.enumerated().sorted { a, b in
            let (ra, rb) = (rank[Self.outcome(a.element)] ?? rank.count, rank[Self.outcome(b.element)] ?? rank.count)
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
        for result in listed { html += card(result) }
        html += "</div>\n"
        html += matrix(groups)
        html += "<script>\(Self.script)</script>\n</body></html>\n"
        return html
    }

    /// Rules by verdict, with a column for each outcome that occurs in the run (`data-label` names it in the
    /// one-block-per-rule layout of narrow screens).
    private func matrix(_ groups: [RuleGroup]) -> String {
        let present = Set(report.results.map(Self.outcome))
        let columns = Self.outcomes.filter(present.contains)
        var html = "<h2>Rules by verdict</h2>\n<table id=\"matrix\"><thead><tr><th>rule</th><th>level</th><th>cases</th>"
            + columns.map { "<th>\($0)</th>" }.joined() + "<th>statement</th></tr></thead><tbody>\n"
        for group in groups {
            var counts: [String: Int] = [:]
            for result in group.results { counts[Self.outcome(result), default: 0] += 1 }
            let failing = group.results.contains { $0.status.isFailure && $0.baseline != .known }
            html += "<tr class=\"rule-row\(failing ? " failing" : "")\" data-rule=\"\(e(group.title))\" data-level=\"\(group.level?.rawValue ?? "valid")\">"
                + "<td class=\"rule-id\"><a href=\"#\" class=\"rule-link\" data-rule=\"\(e(group.title))\"><code>\(e(group.title))</code></a></td>"
                + "<td class=\"rule-level\">\(group.level?.rawValue ?? "")</td><td class=\"rule-count\" data-label=\"cases\">\(group.results.count)</td>"
                + columns.map { outcome in
                    let count = counts[outcome] ?? 0
                    return "<td class=\"cell \(count == 0 ? "zero" : outcome)\" data-label=\"\(outcome)\">\(count == 0 ? "" : String(count))</td>"
                }.joined()
                + "<td class=\"statement\">\(e(group.statement ?? "valid cases: every conforming verifier accepts them"))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// The summary cards, each a link to the cases it counts (the same fragment syntax the filters write).
    private var summary: String {
        var cells: [(label: String, id: String, count: Int, filter: String)] = [
            ("cases", "count-cases", report.results.count, ""),
            ("passed", "count-pass", report.results.filter { $0.status == .pass }.count, "outcome=pass"),
            ("findings", "count-findings", report.findings.count, "outcome=finding"),
            ("crashes", "count-crashes", report.crashes.count, "outcome=crash"),
            ("unconfirmed", "count-unconfirmed", report.unconfirmed.count, "outcome=unconfirmed"),
            ("masked", "count-masked", report.masked.count, "outcome=masked"),
            ("errors", "count-errors", report.errors.count, "outcome=error"),
            ("unsupported", "count-unsupported", report.unsupported.count, "outcome=unsupported"),
            ("acceptable", "count-acceptable", report.acceptable.count, "outcome=acceptable"),
        ]
        for proof in CaseResult.Proof.allCases {
            let label = switch proof {
            case .reasonAndControl: "proven by reason and control"
            case .control: "proven by control only"
            case .outcome: "proven by outcome"
            case .observed: "observed (options checks)"
            }
            cells.append((label, "count-proof-\(proof.rawValue)", report.passes(provenBy: proof).count, "proof=\(proof.rawValue)"))
        }
        for level in RuleLevel.allCases {
            cells.append(("\(level.rawValue) findings", "count-\(level.rawValue.lowercased())",
                          report.findings.filter { report.level(of: $0) == level }.count, "level=\(level.rawValue)&outcome=finding"))
        }
        if let baseline = report.baseline {
            cells += [("new", "count-new", baseline.new.count, "baseline=new"), ("known", "count-known", baseline.known.count, "baseline=known"),
                      ("fixed", "count-fixed", baseline.fixed.count, "baseline=fixed")]
        }
        return "<nav id=\"summary\">" + cells.map { cell in
            "<a class=\"card\(cell.count == 0 ? " zero" : "")\" href=\"#\(cell.filter)\" data-filter=\"\(cell.filter)\"><span class=\"number\" id=\"\(cell.id)\">\(cell.count)</span><span class=\"label\">\(e(cell.label))</span></a>"
        }.joined() + "</nav>\n<p class=\"tally\">\(e(report.tally))</p>\n"
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
        <details class="case \(outcome)" id="case-\(e(result.caseId))" data-family="\(e(result.family?.rawValue ?? ""))" data-level="\(level)" data-outcome="\(outcome)" data-rule="\(e(result.rule?.rawValue ?? "valid"))" data-id="\(e(result.caseId))" data-proof="\(result.proof?.rawValue ?? "")" data-baseline="\(result.baseline?.rawValue ?? "")"\(result.status.isFailure ? " open" : "")>
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
    private func e(_ text: String) -> String { HTMLText.escaped(text) }

    package static let style = """
    body{font:14px/1.45 system-ui,sans-serif;margin:1em 1.5em;color:#1b1f24;background:#fff;overflow-wrap:anywhere}
    .tally,.control-note{margin:.4em 0}
    h1{font-size:1.5em;margin:0}h2{font-size:1.15em;margin-top:1.6em}
    .meta{color:#57606a}.verdict{font-weight:bold;font-size:1.1em;padding:.4em .7em;border-radius:4px;display:inline-block}
    .exit0{background:#dafbe1;color:#116329}.exit1{background:#ffebe9;color:#a40e26}.exit2{background:#fff8c5;color:#7d4e00}
    #summary{display:flex;flex-wrap:wrap;gap:.4em}.card{border:1px solid #d0d7de;border-radius:6px;padding:.2em .6em;color:inherit;text-decoration:none}
    .card:hover,.card:focus{border-color:#0969da;background:#f6f8fa}.card.active{border-color:#0969da;box-shadow:0 0 0 2px #0969da inset}
    .card .number{font-size:1.25em;font-weight:bold;margin-right:.3em}.card.zero{opacity:.55}
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
    @media (max-width:700px){body{margin:.6em}#filters{position:static;gap:.5em}.card.zero{display:none}
    #matrix thead{display:none}#matrix,#matrix tbody,#matrix tr,#matrix td{display:block;width:auto}
    #matrix tr{border:1px solid #d0d7de;border-radius:6px;margin:.35em 0;padding:.2em .4em}#matrix td{border:0;padding:.1em .2em}
    #matrix td.cell,#matrix td.rule-count,#matrix td.rule-level{display:inline-block;min-width:0}#matrix td.cell.zero{display:none}
    #matrix td[data-label]::before{content:attr(data-label) " ";font-weight:normal;color:#57606a}
    tr.failing td:first-child{border-left:0}tr.failing{border-left:4px solid #cf222e}.badge{min-width:0}}
    """

    static let script = """
    (function(){
    var cases=[].slice.call(document.querySelectorAll('details.case'));
    var rows=[].slice.call(document.querySelectorAll('tr.rule-row'));
    var family=document.getElementById('filter-family'),level=document.getElementById('filter-level');
    var outcome=document.getElementById('filter-outcome'),rule=document.getElementById('filter-rule');
    var proof=document.getElementById('filter-proof'),baseline=document.getElementById('filter-baseline')||{value:''};
    var cards=[].slice.call(document.querySelectorAll('a.card'));
    var failing={finding:1,hang:1,crash:1,error:1};
    function apply(){
      var shown=0,f=family.value,l=level.value,o=outcome.value,p=proof.value,b=baseline.value,r=rule.value.trim().toLowerCase();
      var rulesShown={};
      // A whole rule id (what a rule link sets) selects that rule alone; other text matches rule or case ids.
      var exact=rows.some(function(row){return row.dataset.rule.toLowerCase()===r;});
      cases.forEach(function(c){
        var d=c.dataset;
        var ok=(!f||d.family===f)&&(!l||d.level===l)&&(!o||(o==='failing'?failing[d.outcome]===1:d.outcome===o))
          &&(!p||(d.proof===p&&d.outcome==='pass'))&&(!b||d.baseline===b)
          &&(!r||(exact?d.rule.toLowerCase()===r:(d.rule.toLowerCase().indexOf(r)>=0||d.id.toLowerCase().indexOf(r)>=0)));
        c.classList.toggle('hidden',!ok);if(ok){shown++;rulesShown[d.rule]=1;}
      });
      rows.forEach(function(row){row.classList.toggle('hidden',!rulesShown[row.dataset.rule]);});
      document.getElementById('visible-count').textContent=shown+' of '+cases.length+' cases shown';
      var state=[['family',f],['level',l],['outcome',o],['proof',p],['baseline',b],['rule',r]].filter(function(q){return q[1];})
        .map(function(q){return q[0]+'='+encodeURIComponent(q[1]);}).join('&');
      cards.forEach(function(c){c.classList.toggle('active',c.dataset.filter===state);});
      if(history.replaceState){history.replaceState(null,'',state?'#'+state:location.pathname+location.search);}
    }
    var fields={family:family,level:level,outcome:outcome,proof:proof,baseline:baseline,rule:rule};
    function clear(){Object.keys(fields).forEach(function(k){fields[k].value='';});}
    // The filters survive a reload and travel in a link: report.html#outcome=failing&level=MUST.
    function read(fragment){
      clear();
      fragment.replace(/^#/,'').split('&').forEach(function(pair){
        var kv=pair.split('='),v='';
        try{v=decodeURIComponent(kv[1]||'');}catch(err){return;}
        var el=fields.hasOwnProperty(kv[0])?fields[kv[0]]:null;if(el){el.value=v;}
      });
    }
    read(location.hash);
    [family,level,outcome,proof,baseline].forEach(function(s){if(s.addEventListener){s.addEventListener('change',apply);}});
    rule.addEventListener('input',apply);
    document.getElementById('filter-reset').addEventListener('click',function(){clear();apply();});
    // A summary card shows the cases it counts, the first of them at the top of the list.
    cards.forEach(function(c){
      c.addEventListener('click',function(ev){ev.preventDefault();read(c.dataset.filter);apply();
        document.getElementById('cases-heading').scrollIntoView();});
    });
    [].slice.call(document.querySelectorAll('a.rule-link')).forEach(function(a){
      a.addEventListener('click',function(ev){ev.preventDefault();rule.value=a.dataset.rule;apply();
        document.getElementById('filters').scrollIntoView();});
    });
    apply();
    })();
    """
}
