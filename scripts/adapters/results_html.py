"""Writes docs/results.html (results.py --html FILE) from the same adapter/report pairs as docs/results.md: one
self-contained page (inline style and script, a content security policy that fetches nothing) with a row per rule
grouped by profile and family, a column per library, each rule's cases behind a click, and filters. Deterministic
for the same reports: no timestamps, durations or host names."""
import html
from collections import Counter

# Most severe first: a cell with several kinds is coloured by the first it has.
SEVERITY = ["error", "crash", "finding", "masked", "unconfirmed", "policy", "unsupported", "acceptable", "agree"]
LABEL = {"agree": "pass", "finding": "finding", "crash": "crash", "masked": "masked", "unconfirmed": "unconfirmed",
         "acceptable": "either",
         "policy": "policy", "unsupported": "unsupported", "error": "error"}

STYLE = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa;
  --pass-bg: #dafbe1; --pass-fg: #116329; --finding-bg: #ffebe9; --finding-fg: #a40e26;
  --policy-bg: #fff8c5; --policy-fg: #7d4e00; --unsupported-bg: #eaeef2; --unsupported-fg: #59636e;
  --error-bg: #fbefff; --error-fg: #8250df; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); margin: 0 24px 48px; }
h1 { font-size: 22px; margin: 20px 0 6px; }
h2 { font-size: 16px; margin: 22px 0 8px; }
p { margin: 6px 0; max-width: 1100px; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: var(--head); position: sticky; top: 0; z-index: 1; }
table.summary td.n { text-align: right; font-variant-numeric: tabular-nums; }
.legend span.cell { display: inline-block; padding: 1px 8px; margin-right: 4px; border-radius: 3px; }
.filters { position: sticky; top: 0; background: #fff; z-index: 2; padding: 8px 0; border-bottom: 1px solid var(--line);
  display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; }
.filters label { white-space: nowrap; }
.filters button { font: inherit; padding: 1px 8px; }
table.matrix { width: 100%; margin-top: 8px; }
table.matrix thead th { top: 42px; }
table.matrix th.lib { min-width: 150px; }
table.matrix th.lib small { display: block; font-weight: normal; color: var(--muted); }
tr.group th { background: #eef1f4; font-size: 15px; }
tr.family th { background: #f6f8fa; font-weight: 600; padding-left: 20px; }
tr.rule { cursor: pointer; }
tr.rule:hover > td { filter: brightness(0.97); }
tr.rule td.name { padding-left: 20px; }
tr.rule td.name .toggle { display: inline-block; width: 1em; color: var(--muted); }
tr.rule.open td.name .toggle { transform: rotate(90deg); }
tr.rule .statement { display: block; max-width: 720px; }
tr.rule .source { display: block; font-size: 12px; color: var(--muted); }
tr.case td { font-size: 13px; }
tr.case td:not(.cell) { background: #fcfcfd; }
tr.case td.name { padding-left: 40px; }
tr.case .description { display: block; color: var(--muted); max-width: 720px; }
td.level span { font-size: 11px; font-weight: 600; padding: 1px 6px; border-radius: 3px; border: 1px solid var(--line); }
td.level span.MUST { border-color: #cf222e; color: #a40e26; }
td.level span.SHOULD { border-color: #bf8700; color: #7d4e00; }
td.level span.POLICY { border-color: #0969da; color: #0550ae; }
td.cases { text-align: right; font-variant-numeric: tabular-nums; }
.cell { white-space: nowrap; }
.cell small { display: block; font-size: 11px; font-weight: normal; color: var(--muted); white-space: normal; }
.agree { background: var(--pass-bg); color: var(--pass-fg); }
.finding, .crash { background: var(--finding-bg); color: var(--finding-fg); font-weight: 600; }
.unconfirmed, .masked { background: #ddf4ff; color: #0550ae; }
.acceptable { background: var(--unsupported-bg); color: var(--unsupported-fg); }
.policy { background: var(--policy-bg); color: var(--policy-fg); }
.unsupported { background: var(--unsupported-bg); color: var(--unsupported-fg); }
.error { background: var(--error-bg); color: var(--error-fg); font-weight: 600; }
.na { color: #8c959f; background: repeating-linear-gradient(45deg, #fff, #fff 5px, #f3f4f6 5px, #f3f4f6 10px); }
tr.case td.cell[title] { cursor: help; }
.hidden { display: none; }
"""

SCRIPT = """
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var profile = byId('f-profile'), level = byId('f-level'), differ = byId('f-differ'), finding = byId('f-finding');
  var rules = Array.prototype.slice.call(document.querySelectorAll('tr.rule'));
  var cases = Array.prototype.slice.call(document.querySelectorAll('tr.case'));
  var heads = Array.prototype.slice.call(document.querySelectorAll('tr.group, tr.family'));
  function apply() {
    var shown = 0, visible = {};
    rules.forEach(function (row) {
      var d = row.dataset;
      var show = (!profile.value || d.profile === profile.value) && (!level.value || d.level === level.value) &&
        (!differ.checked || d.differ === '1') && (!finding.checked || d.finding === '1');
      row.classList.toggle('hidden', !show);
      if (show) { shown++; visible[d.rowid] = true; visible[d.family] = true; visible[d.profile + '|'] = true; }
    });
    cases.forEach(function (row) {
      var d = row.dataset, parent = byId(d.rule);
      var show = !!visible[d.rule] && parent.classList.contains('open') &&
        (!differ.checked || d.differ === '1') && (!finding.checked || d.finding === '1');
      row.classList.toggle('hidden', !show);
    });
    heads.forEach(function (row) { row.classList.toggle('hidden', !visible[row.dataset.key]); });
    byId('f-count').textContent = shown + ' of ' + rules.length + ' rules';
  }
  function toggle(row, open) {
    row.classList.toggle('open', open);
    row.querySelector('.toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
  }
  rules.forEach(function (row) {
    row.addEventListener('click', function () { toggle(row, !row.classList.contains('open')); apply(); });
    row.querySelector('.toggle').addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); row.click(); }
    });
  });
  byId('f-expand').addEventListener('click', function () { rules.forEach(function (r) { toggle(r, true); }); apply(); });
  byId('f-collapse').addEventListener('click', function () { rules.forEach(function (r) { toggle(r, false); }); apply(); });
  [profile, level, differ, finding].forEach(function (el) { el.addEventListener('change', apply); });
  apply();
})();
"""


def esc(value):
    return html.escape(str(value), quote=True)


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def cell_text(kinds, total):
    """A rule's cell for one library: its most severe kind first ("2 findings"), the rest below ("3/5 pass")."""
    if kinds.get("agree", 0) == total:
        return "agree", f"{total}/{total} pass", ""
    parts = []
    for kind in SEVERITY:
        n = kinds.get(kind, 0)
        if not n:
            continue
        if kind == "agree":
            parts.append(f"{n}/{total} pass")
        elif kind in ("finding", "error"):
            parts.append(plural(n, kind))
        elif kind == "crash":
            parts.append(f"{n} crash" + ("" if n == 1 else "es"))
        else:
            parts.append(LABEL[kind] if n == total else f"{n} {LABEL[kind]}")
    main = next(kind for kind in SEVERITY if kinds.get(kind))
    return main, parts[0], " · ".join(parts[1:])


def case_title(result, kind, detail):
    """The hover text of a case's cell: the library's actual verdict and reason, and why it counts as it does."""
    actual = result.get("actual") or {}
    expected = result.get("expected") or ("accept" if result.get("rule") is None else "reject")
    lines = [f"expected {expected}, got {actual['outcome']}" if actual.get("outcome") else f"expected {expected}"]
    if actual.get("rule"):
        lines.append(f"rule named: {actual['rule']}")
    if actual.get("reason"):
        lines.append(f"reason: {actual['reason']}")
    if result.get("message") and actual.get("reason", "") not in result["message"]:
        lines.append(f"message: {result['message']}")
    if kind in ("policy", "unsupported") and detail and not (actual.get("reason") and actual["reason"] in detail):
        lines.append(f"{LABEL[kind]}: {detail}")
    lines.append(f"harness status: {result.get('status')}")
    return "\n".join(lines)


def render(runs, classify, levels):
    """runs: [(adapter, report)] in the order results.md lists them; classify(result, adapter) -> (kind, detail)."""
    libraries = []  # column order: first appearance
    for adapter, _ in runs:
        if adapter["name"] not in [a["name"] for a in libraries]:
            libraries.append(adapter)
    names = [a["name"] for a in libraries]
    profiles = {}  # profile -> {library name: (adapter, report, results by case id)}
    for adapter, report in runs:
        profiles.setdefault(report["profile"], {})[adapter["name"]] = (
            adapter, report, {r["caseId"]: r for r in report["results"]})
    rule_info = {}
    for _, report in runs:
        for rule in report.get("rules", []):
            rule_info.setdefault(rule["id"], rule)

    out = ['<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
           '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
           'style-src \'unsafe-inline\'; script-src \'unsafe-inline\'">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>Third-party verifiers against the attest-harness catalogue</title>',
           f'<style>{STYLE}</style>', '</head>', '<body>',
           '<h1>Third-party verifiers against the attest-harness catalogue</h1>',
           '<p class="muted">Generated by <code>scripts/compare</code> from the same reports as '
           '<code>docs/results.md</code>; do not edit.</p>']

    # What was compared.
    harness = sorted({r.get("harnessVersion", "?") for _, r in runs})
    seeds = sorted({str(r.get("seed", "?")) for _, r in runs})
    out.append('<dl class="meta">')
    out.append('<dt>libraries</dt><dd>' + ", ".join(
        f'{esc(a["name"])} (<code>{esc(a.get("package", "?"))}</code>)' for a in libraries) + '</dd>')
    out.append('<dt>profiles</dt><dd>' + ", ".join(
        f'<code>{esc(p)}</code>: {esc(", ".join(libs))}' for p, libs in profiles.items()) + '</dd>')
    out.append(f'<dt>seed</dt><dd>{esc(", ".join(seeds))}</dd>')
    out.append(f'<dt>harness</dt><dd>attest-harness {esc(", ".join(harness))}</dd>')
    out.append('<dt>catalogue</dt><dd>' + ", ".join(sorted({
        f'<code>{esc(p)}</code> {esc(e[1].get("catalogue", "?"))}'
        for p, entries in profiles.items() for e in entries.values()})) + '</dd>')
    out.append('</dl>')
    out.append('<p>Each library runs behind an exec adapter in <code>scripts/adapters/</code> that injects the '
               "harness's test roots and the case's time. "
               '<span class="cell agree">pass</span> the verdict is the expected one; '
               '<span class="cell finding">finding</span> the verdict differs on a rule the library claims; '
               '<span class="cell policy">policy</span> a rule the library leaves to its caller, by its own '
               'documentation; <span class="cell unsupported">unsupported</span> a format, algorithm or feature the '
               'library does not implement; <span class="cell error">error</span> the adapter gave no verdict; '
               '<span class="cell crash">crash</span> the library raised something that is not a verification error; '
               '<span class="cell unconfirmed">unconfirmed</span> refused, but its control was refused too; '
               '<span class="cell masked">masked</span> refused for another rule\'s reason; '
               '<span class="cell na">n/a</span> the library was not run under that profile.</p>')

    # The same counts as results.md's table.
    out += ['<h2>Runs</h2>', '<table class="summary"><thead><tr><th>library</th><th>package</th><th>profile</th>'
            '<th>cases</th><th>pass</th><th>reason and control / control only / outcome</th><th>findings</th>'
            '<th>MUST / SHOULD / POLICY</th><th>crashes</th><th>unconfirmed</th><th>masked</th><th>policy</th>'
            '<th>unsupported</th><th>errors</th></tr></thead><tbody>']
    for adapter, report in runs:
        counts, by_level, by_proof = Counter(), Counter(), Counter()
        for result in report["results"]:
            kind, detail = classify(result, adapter)
            counts[kind] += 1
            if kind == "agree":
                by_proof[detail] += 1
            if kind == "finding":
                by_level[levels.get(result.get("rule"), "MUST") if result.get("rule") else "MUST"] += 1
        split = " / ".join(str(by_level[level]) for level in ["MUST", "SHOULD", "POLICY"])
        proofs = " / ".join(str(by_proof[proof]) for proof in ("reason-and-control", "control", "outcome"))
        cells = [len(report["results"]), counts["agree"], proofs, counts["finding"], split, counts["crash"],
                 counts["unconfirmed"], counts["masked"], counts["policy"], counts["unsupported"], counts["error"]]
        out.append(f'<tr><td>{esc(adapter["name"])}</td><td><code>{esc(adapter.get("package", "?"))}</code></td>'
                   f'<td><code>{esc(report["profile"])}</code></td>'
                   + "".join(f'<td class="n">{esc(c)}</td>' for c in cells) + '</tr>')
    out.append('</tbody></table>')

    # The matrix: rows per rule (by profile, then family), a column per library.
    rows = []
    rule_count = 0
    for p_index, (profile, entries) in enumerate(profiles.items()):
        case_ids = []
        for _, _, by_id in entries.values():
            case_ids += [c for c in by_id if c not in case_ids]
        families = {}  # family -> {rule key -> [case ids]}
        for case_id in case_ids:
            first = next(by_id[case_id] for _, _, by_id in entries.values() if case_id in by_id)
            family = first.get("family") or case_id.split(".")[0]
            families.setdefault(family, {}).setdefault(first.get("rule") or "valid", []).append(case_id)
        rows.append(f'<tr class="group" data-key="{esc(profile)}|"><th colspan="{3 + len(names)}">profile '
                    f'<code>{esc(profile)}</code> <span class="muted">({esc(", ".join(entries))}; '
                    f'{len(case_ids)} cases)</span></th></tr>')
        for f_index, (family, rules) in enumerate(families.items()):
            family_key = f"p{p_index}f{f_index}"
            rows.append(f'<tr class="family" data-key="{family_key}"><th colspan="{3 + len(names)}">'
                        f'family {esc(family)}</th></tr>')
            for rule, ids in rules.items():
                rule_count += 1
                row_id = f"r{rule_count}"
                info = rule_info.get(rule, {})
                level = info.get("level") or levels.get(rule) or ("valid" if rule == "valid" else "?")
                # Per case: each library's (kind, detail), None where the library did not run under the profile.
                judged = []
                for case_id in ids:
                    line = []
                    for name in names:
                        entry = entries.get(name)
                        if entry is None or case_id not in entry[2]:
                            line.append(None)
                        else:
                            line.append((entry[2][case_id],) + classify(entry[2][case_id], entry[0]))
                    judged.append((case_id, line))

                def differs(line):
                    return len({cell[1] for cell in line if cell is not None}) > 1

                def flagged(line):
                    return any(cell is not None and cell[1] in ("finding", "error") for cell in line)

                any_differ = any(differs(line) for _, line in judged)
                any_flag = any(flagged(line) for _, line in judged)
                if rule == "valid":
                    name_html = ('<code>valid</code><span class="statement">Valid evidence: every step is to be '
                                 'accepted (a refusal counts with the MUST findings).</span>')
                else:
                    name_html = f'<code>{esc(rule)}</code>'
                    if info.get("statement"):
                        name_html += f'<span class="statement">{esc(info["statement"])}</span>'
                    if info.get("source"):
                        title = f' title="{esc(info["quote"])}"' if info.get("quote") else ""
                        name_html += f'<span class="source"{title}>{esc(info["source"])}</span>'
                cells = []
                for index, name in enumerate(names):
                    if name not in entries:
                        cells.append('<td class="cell na">n/a</td>')
                        continue
                    kinds = Counter(line[index][1] for _, line in judged if line[index] is not None)
                    kind, text, sub = cell_text(kinds, sum(kinds.values()))
                    cells.append(f'<td class="cell {kind}">{esc(text)}' + (f'<small>{esc(sub)}</small>' if sub else "")
                                 + '</td>')
                rows.append(f'<tr class="rule" id="{row_id}" data-rowid="{row_id}" data-profile="{esc(profile)}" '
                            f'data-family="{family_key}" data-level="{esc(level)}" '
                            f'data-differ="{int(any_differ)}" data-finding="{int(any_flag)}">'
                            f'<td class="name"><span class="toggle" role="button" tabindex="0" aria-expanded="false">&#9656;</span>'
                            f'{name_html}</td><td class="level"><span class="{esc(level)}">{esc(level)}</span></td>'
                            f'<td class="cases">{len(ids)}</td>' + "".join(cells) + '</tr>')
                for case_id, line in judged:
                    first = next(cell[0] for cell in line if cell is not None)
                    expected = first.get("expected") or ("accept" if first.get("rule") is None else "reject")
                    name_html = f'<code>{esc(case_id)}</code>'
                    if first.get("description"):
                        name_html += f'<span class="description">{esc(first["description"])}</span>'
                    cells = []
                    for cell in line:
                        if cell is None:
                            cells.append('<td class="cell na">n/a</td>')
                            continue
                        result, kind, detail = cell
                        cells.append(f'<td class="cell {kind}" title="{esc(case_title(result, kind, detail))}">'
                                     f'{esc(LABEL[kind])}</td>')
                    rows.append(f'<tr class="case hidden" data-rule="{row_id}" data-differ="{int(differs(line))}" '
                                f'data-finding="{int(flagged(line))}"><td class="name" colspan="2">{name_html}</td>'
                                f'<td>{esc(expected)}</td>' + "".join(cells) + '</tr>')

    out += ['<h2>Rules by library</h2>',
            '<p class="muted">Click a rule for its cases; hover a case\'s cell for the library\'s verdict and '
            'reason.</p>',
            '<div class="filters">',
            '<label>profile <select id="f-profile"><option value="">all</option>'
            + "".join(f'<option value="{esc(p)}">{esc(p)}</option>' for p in profiles) + '</select></label>',
            '<label>level <select id="f-level"><option value="">all</option>'
            + "".join(f'<option value="{v}">{v}</option>' for v in ["MUST", "SHOULD", "POLICY", "valid"])
            + '</select></label>',
            '<label><input type="checkbox" id="f-differ"> only rows where libraries differ</label>',
            '<label><input type="checkbox" id="f-finding"> only findings (and errors)</label>',
            '<button type="button" id="f-expand">expand all</button>',
            '<button type="button" id="f-collapse">collapse all</button>',
            '<span class="muted" id="f-count"></span>',
            '</div>',
            '<table class="matrix"><thead><tr><th>rule</th><th>level</th><th>cases</th>'
            + "".join(f'<th class="lib">{esc(a["name"])}<small>{esc(a.get("package", ""))}</small></th>'
                      for a in libraries) + '</tr></thead><tbody>']
    out += rows
    out += ['</tbody></table>', f'<script>{SCRIPT}</script>', '</body>', '</html>']
    return "\n".join(out) + "\n"
