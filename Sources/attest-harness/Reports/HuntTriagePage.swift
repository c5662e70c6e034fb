import AttestConformance
import AttestHunt
import Foundation

/// `hunt report DIR --format html`: the triage of a hunt as one self-contained page (inline style and script, nothing
/// fetched), in the run report's look. The counts first; then a row per cluster (its verdict letters per verifier,
/// the suggested rule and whether a catalogued case already catches the accepting verifier), filterable to what is
/// new; then per cluster each verifier's verdict, the decoded evidence of the mutated step against the valid case's
/// (`EvidenceDiff` over the trees the run report shows: changed, added and removed nodes, the unchanged rest counted),
/// the raw inputs that differ, and the replay command. Every value is escaped.
struct HuntTriagePage {
    let report: HuntReport
    /// The hunt directory as the user named it (for the replay commands).
    let directory: String

    var text: String {
        let state = report.state
        let configuration = state.configuration
        let clusters = report.clusters
        let new = clusters.filter(report.isNew)
        let either = clusters.filter(report.isEither)
        let failing = clusters.filter { $0.judgements.contains { $0.verdictClass == "C" || $0.verdictClass == "H" } }
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <title>attest-harness hunt: \(e(configuration.profile)), seed \(configuration.seed)</title>
        <style>\(HTMLReport.style)\(Self.style)</style></head><body>
        <header><h1>attest-harness hunt</h1>
        <p class="meta">profile <b>\(e(configuration.profile))</b> · seed \(configuration.seed) · \(state.mutantsTried) mutants in \(String(format: "%.0f", state.elapsed)) s · \(state.agreements) agreed\(state.droppedClusters > 0 ? " · \(state.droppedClusters) clusters beyond the cap dropped" : "")</p>
        <ol class="verifiers">\(configuration.verifiers.map { "<li><code>\(e($0))</code></li>" }.joined())</ol>
        </header>
        <nav id="summary">
        \(card("clusters", clusters.count, filter: "all"))\(card("new: no catalogued case catches it", new.count, filter: "new"))\(card("crash or hang", failing.count, filter: "failing"))\(card("either (the relying party's choice)", either.count, filter: "either"))
        </nav>

        """
        if !state.excludedBaselines.isEmpty {
            html += "<details class=\"excluded\"><summary>\(state.excludedBaselines.count) valid cases left out (a verifier did not accept them, so their mutants would prove nothing)</summary><ul>"
                + state.excludedBaselines.sorted { $0.key < $1.key }.map { "<li><code>\(e($0.key))</code>: \(e($0.value))</li>" }.joined()
                + "</ul></details>\n"
        }
        html += "<h2 id=\"clusters-heading\">Clusters, most seen first</h2>\n<table id=\"clusters\"><thead><tr><th>cluster</th><th>seen</th><th>verdicts</th><th>suggested rule</th><th>catalogue</th></tr></thead><tbody>\n"
        for cluster in clusters {
            let rule = cluster.suggestedRule(verifiers: configuration.verifiers)
            html += "<tr class=\"cluster-row\" data-kind=\"\(kind(cluster))\"><td><a href=\"#\(anchor(cluster))\"><code>\(e(cluster.key.id))</code></a></td>"
                + "<td>\(cluster.count)</td><td>\(letters(cluster))</td><td>\(ruleText(rule))</td><td>\(e(report.coverage(cluster)))</td></tr>\n"
        }
        html += "</tbody></table>\n"
        for cluster in clusters { html += section(cluster) }
        html += "<script>\(Self.script)</script>\n</body></html>\n"
        return html
    }

    private func section(_ cluster: Cluster) -> String {
        let configuration = report.state.configuration
        let mutant = cluster.mutant
        var html = """
        <section class="cluster" id="\(anchor(cluster))" data-kind="\(kind(cluster))">
        <h3><code>\(e(cluster.key.id))</code> \(letters(cluster))</h3>
        <p>field <code>\(e(cluster.key.field.rawValue))</code>, mutation <code>\(e(cluster.key.kind.rawValue))</code>, seen \(cluster.count) times; kept mutant \(mutant.index) (\(mutant.size) changed bytes) of <code>\(e(mutant.baseline))</code>, step \(mutant.step)</p>
        <p>suggested rule: \(ruleText(cluster.suggestedRule(verifiers: configuration.verifiers))) · catalogue: \(e(report.coverage(cluster)))</p>
        <ul class="judgements">\(zip(configuration.verifiers, cluster.judgements).map { name, judgement in
            "<li><span class=\"verdict-letter v\(judgement.verdictClass)\">\(judgement.verdictClass)</span> <code>\(e(name))</code> \(e(judgement.words))</li>"
        }.joined())</ul>
        <h4>Decoded evidence of step \(mutant.step) against the valid case</h4>

        """
        html += evidenceDiff(cluster)
        html += "<details class=\"raw\"><summary>the inputs that differ, as bytes</summary><pre class=\"command\">\(report.diff(cluster).map(e).joined(separator: "\n"))</pre></details>\n"
        html += "<p>replay:</p><pre class=\"command\">\(e("attest-harness run --cases \(directory)/clusters/\(cluster.key.id).json --profile \(configuration.profile) --verifier VERIFIER"))</pre>\n</section>\n"
        return html
    }

    /// The mutated step's inputs decoded, the valid case's against the mutant's.
    private func evidenceDiff(_ cluster: Cluster) -> String {
        let mutant = cluster.mutant
        guard let baseline = report.baselines[mutant.baseline], baseline.steps.indices.contains(mutant.step),
              mutant.testCase.steps.indices.contains(mutant.step) else { return "<p>(the valid case is not at hand)</p>\n" }
        let before = baseline.steps[mutant.step].inputs
        let after = mutant.testCase.steps[mutant.step].inputs
        let keys = Set(before.keys).union(after.keys).sorted { $0.rawValue < $1.rawValue }
        let decodedBefore = keys.compactMap { key in before[key].map { EvidenceTree.decoded($0, label: key.rawValue) } }
        let decodedAfter = keys.compactMap { key in after[key].map { EvidenceTree.decoded($0, label: key.rawValue) } }
        let differences = EvidenceDiff.between(decodedBefore, decodedAfter)
        guard !differences.isEmpty else {
            return "<p>(the decoded trees are the same: the change is in what decoding does not show, such as a duplicated JSON member or bytes past the shown prefix; see the bytes below)</p>\n"
        }
        var budget = Self.nodesPerCluster
        let shown = differences.map { node($0, budget: &budget) }.joined()
        let elided = budget < 0 ? "<li class=\"unchanged\">at least \(-budget) more differing nodes not shown (the page shows at most \(Self.nodesPerCluster) per cluster)</li>" : ""
        return "<ul class=\"tree diff\">" + shown + elided + "</ul>\n"
    }

    /// At most this many differing nodes per cluster: a mutant that makes a whole object undecodable differs from
    /// the valid case in every node, and 2,000 clusters of that must still make a page a browser opens.
    static let nodesPerCluster = 300

    private func node(_ diff: EvidenceDiff, budget: inout Int) -> String {
        budget -= 1
        guard budget >= 0 else { return "" }
        var html = "<li class=\"\(diff.change.rawValue)\"><span class=\"key\">\(e(diff.label))</span>"
        if let labelBefore = diff.labelBefore { html += " <span class=\"was\">was \(e(labelBefore))</span>" }
        switch diff.change {
        case .changed where diff.before != diff.after:
            html += " <del class=\"value\">\(e(diff.before ?? "(none)"))</del> <ins class=\"value\">\(e(diff.after ?? "(none)"))</ins>"
        case .added: html += diff.after.map { " <ins class=\"value\">\(e($0))</ins>" } ?? " <span class=\"tag\">added</span>"
        case .removed: html += diff.before.map { " <del class=\"value\">\(e($0))</del>" } ?? " <span class=\"tag\">removed</span>"
        default: break
        }
        if !diff.children.isEmpty || diff.unchanged > 0 {
            html += "<ul class=\"tree\">" + diff.children.map { node($0, budget: &budget) }.joined()
                + (diff.unchanged > 0 ? "<li class=\"unchanged\">\(diff.unchanged) unchanged</li>" : "") + "</ul>"
        }
        return html + "</li>"
    }

    /// What the filter cards select a cluster by: new, either, failing (a crash or hang), else catalogued.
    private func kind(_ cluster: Cluster) -> String {
        var kinds: [String] = []
        if report.isNew(cluster) { kinds.append("new") }
        if report.isEither(cluster) { kinds.append("either") }
        if cluster.judgements.contains(where: { $0.verdictClass == "C" || $0.verdictClass == "H" }) { kinds.append("failing") }
        return kinds.isEmpty ? "catalogued" : kinds.joined(separator: " ")
    }

    private func letters(_ cluster: Cluster) -> String {
        "<span class=\"letters\">" + cluster.judgements.map { "<span class=\"verdict-letter v\($0.verdictClass)\">\($0.verdictClass)</span>" }.joined() + "</span>"
    }

    private func ruleText(_ rule: RuleID?) -> String {
        guard let rule else { return "none named" }
        return "<code>\(e(rule.rawValue))</code>" + (report.rules[rule].map { " [\($0.level.rawValue)]" } ?? "")
    }

    private func card(_ label: String, _ count: Int, filter: String) -> String {
        "<a class=\"card\(count == 0 ? " zero" : "")\" href=\"#\" data-filter=\"\(filter)\"><span class=\"number\">\(count)</span><span class=\"label\">\(e(label))</span></a>"
    }

    private func anchor(_ cluster: Cluster) -> String { "cluster-" + report.anchor(cluster) }

    private func e(_ text: String) -> String { HTMLText.escaped(text) }

    static let style = """
    ol.verifiers{margin:.3em 0;padding-left:1.6em}.verdict-letter{display:inline-block;min-width:1.3em;text-align:center;font-weight:bold;border-radius:3px;margin-right:1px;font-family:ui-monospace,monospace}
    .vA{background:#dafbe1;color:#116329}.vR{background:#ffebe9;color:#a40e26}.vC,.vH{background:#cf222e;color:#fff}.vE{background:#fff8c5;color:#7d4e00}
    section.cluster{border:1px solid #d0d7de;border-radius:6px;margin:.8em 0;padding:.3em .8em}h3{font-size:1.05em;margin:.3em 0}h4{font-size:1em;margin:.6em 0 .2em}
    ul.judgements{padding-left:1.2em}ul.diff li.changed>.key{font-weight:bold}ul.diff li.added>.key,ins{background:#dafbe1;text-decoration:none}
    ul.diff li.removed>.key,del{background:#ffebe9}ins.value,del.value{padding:0 .2em}.was,.tag,.unchanged{color:#57606a;font-size:.9em}
    #clusters td{overflow-wrap:normal}#clusters td:first-child code{overflow-wrap:anywhere}#clusters td:nth-child(2),.letters{white-space:nowrap}
    @media (max-width:700px){#clusters thead{display:none}#clusters,#clusters tbody,#clusters tr,#clusters td{display:block}
    #clusters tr{border:1px solid #d0d7de;border-radius:6px;margin:.35em 0;padding:.2em .4em}#clusters td{border:0;padding:.1em .2em}}
    """

    /// The cards filter the rows and sections by kind; nothing else moves.
    static let script = """
    (function(){
    var cards=[].slice.call(document.querySelectorAll('a.card'));
    var items=[].slice.call(document.querySelectorAll('tr.cluster-row,section.cluster'));
    function show(kind){
      items.forEach(function(el){var kinds=el.dataset.kind.split(' ');el.classList.toggle('hidden',kind!=='all'&&kinds.indexOf(kind)<0);});
      cards.forEach(function(c){c.classList.toggle('active',c.dataset.filter===kind);});
    }
    cards.forEach(function(c){c.addEventListener('click',function(ev){ev.preventDefault();show(c.dataset.filter);
      document.getElementById('clusters-heading').scrollIntoView();});});
    show('all');
    })();
    """
}
