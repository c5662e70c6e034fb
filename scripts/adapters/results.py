"""Writes docs/results.md from `attest-harness run --format json` reports of the adapters (scripts/compare):
per profile, per rule, each library's verdict on each case against the expectation, in the manner of
x509-limbo's results pages. A wrong verdict is a finding only where the library claims the rule; rules it leaves
to its caller (adapter.json outOfScope) and formats it lacks (unsupported) are shown as such, not as bugs.

    results.py [--html FILE] ADAPTER.json REPORT.json [ADAPTER.json REPORT.json ...] > docs/results.md

--html FILE also writes the same results as one self-contained page, a column per library (results_html.py)."""
import fnmatch
import json
import os
import sys
from collections import defaultdict


#: How much backs a pass (the report's `proof`), strongest first.
PROOFS = {"reason-and-control": "reason and control", "control": "control only", "outcome": "outcome"}


def classify(result, adapter):
    """(kind, detail): agree (a pass; detail is its proof), finding, crash, unconfirmed, masked, policy,
    unsupported or error. The detail is one line (a library's message may span several, which would end a table row)."""
    kind, detail = classify_lines(result, adapter)
    return kind, " ".join(detail.split())


def classify_lines(result, adapter):
    for pattern, reason in adapter["unsupported"].items():
        if fnmatch.fnmatch(result["caseId"], pattern):
            return "unsupported", reason
    if result["status"] == "unsupported":  # the adapter answered `unsupported` for a step it cannot judge
        return "unsupported", result.get("message", "")
    if result["status"] == "pass":
        if result.get("rule") in adapter["outOfScope"]:
            # The verdict is right, but the library leaves the check to its caller: the adapter's own relying-party
            # code (or nothing) made it, so it is no pass of the library's.
            return "policy", "right verdict, from the caller's side: " + adapter["outOfScope"][result["rule"]]
        return "agree", result.get("proof", "")
    if result["status"] == "error":
        return "error", result.get("message", "")
    if result["status"] == "crash":  # the library failed instead of judging: never a refusal, whatever the scope
        return "crash", (result.get("message") or "")[:160]
    if result["status"] in ("unconfirmed", "masked"):  # a refusal the run cannot back: neither pass nor finding
        return result["status"], (result.get("message") or "")[:160]
    if result["status"] == "acceptable":  # the spec leaves the verdict to the relying party: the choice, recorded
        return "acceptable", (result.get("actual") or {}).get("outcome", "")
    if result["status"] == "hang":  # no verdict within the timeout: a denial of service, whatever the rule's scope
        return "finding", "hang" + (f" ({result['message'][:140]})" if result.get("message") else "")
    if result.get("rule") in adapter["outOfScope"]:
        return "policy", adapter["outOfScope"][result["rule"]]
    actual = result.get("actual") or {}
    return "finding", f"expected {result.get('expected')}, got {actual.get('outcome')}" + (
        f" ({actual['reason'][:140]})" if actual.get("reason") else "")


def rule_levels():
    """Each rule's level (MUST, SHOULD or POLICY), from the vector files the harness writes."""
    import glob
    import os
    levels = {}
    for path in glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "vectors", "*.json")):
        document = json.load(open(path))
        for rule in document.get("rules", []) if isinstance(document, dict) else []:
            levels[rule["id"]] = rule.get("level", "?")
    return levels


def load_report(path):
    """A JSON report of `attest-harness run` (docs/reports.md); any other document or format version is refused."""
    report = json.load(open(path))
    if not isinstance(report, dict) or report.get("format") != "attest-harness-report" \
            or report.get("formatVersion") != 1:
        sys.exit(f"results.py: {path} is not an attest-harness report of format version 1 "
                 f"(format {report.get('format') if isinstance(report, dict) else None!r}, "
                 f"formatVersion {report.get('formatVersion') if isinstance(report, dict) else None!r})")
    return report


def load_causes():
    """The causes read in the libraries' code (confirmed-bugs.json): each entry cites FILE:LINE and lists its cases."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "confirmed-bugs.json")
    return json.load(open(path, encoding="utf-8"))["bugs"]


def cause_of(causes, library, case_id):
    """The entry of `library` whose cases list `case_id`, or None."""
    return next((bug for bug in causes if bug["library"] == library and case_id in bug["cases"]), None)


def confirmed_bugs(causes, levels, uncaused):
    """Every finding and crash with its cause in the library's code, as a list a maintainer can act on: bugs (MUST
    and SHOULD findings, wrong verdicts on valid cases, crashes) first, then hardening findings (POLICY rules)."""
    def row(bug):
        rule = bug.get("rule")
        rule_cell = f"`{rule}` ({levels.get(rule, '?')})" if rule else "-"
        shown = ", ".join(case if case.startswith("hunt cluster") or " " in case else f"`{case}`" for case in bug["cases"])
        return (f"| {bug['library']} ({bug['package']}) | {bug['what']} | {rule_cell} | {bug['outcome']} | "
                f"`{bug['cite']}` | {shown} | {bug['found']} |")
    header = ["| library | what | rule (level) | outcome | where | shown by | found by |", "|---|---|---|---|---|---|---|"]
    hardening = [bug for bug in causes if bug["outcome"] == "finding" and levels.get(bug.get("rule")) == "POLICY"]
    bugs = [bug for bug in causes if bug not in hardening]
    out = ["", "## Library bugs and their causes", "",
           "Every finding and crash above, with its cause read in the pinned library's own code",
           "(`scripts/adapters/confirmed-bugs.json`; each citation is checked against the installed package, and a test",
           "checks that every finding and crash of this page is in the list). *hunt*: first seen by `attest-harness hunt`",
           "(docs/hunt.md), then made a catalogue case where one now exists.", "",
           "### Bugs: MUST and SHOULD findings, valid evidence refused, crashes", ""] + header + [row(bug) for bug in bugs]
    out += ["", "### Hardening findings (POLICY rules: the profile's choices, not violations of the specification)", ""]
    out += header + [row(bug) for bug in hardening]
    if uncaused:
        out += ["", "### Findings whose cause is not yet read", ""]
        out += [f"- {library}: `{case_id}` ({kind})" for library, case_id, kind in uncaused]
    return out


def main(pairs, html_path=None):
    if not pairs or len(pairs) % 2:
        sys.exit("usage: results.py [--html FILE] ADAPTER.json REPORT.json [ADAPTER.json REPORT.json ...]")
    levels = rule_levels()
    runs = []
    for adapter_path, report_path in zip(pairs[::2], pairs[1::2]):
        runs.append((json.load(open(adapter_path)), load_report(report_path)))
    for _, report in runs:  # the report names each rule's level itself; the vector files cover older reports
        levels.update({rule["id"]: rule["level"] for rule in report.get("rules", []) if rule.get("level")})
    out = ["# Third-party verifiers against the attest-harness catalogue", "",
           "Generated by `scripts/compare` (seed 1); do not edit. Each library runs behind an exec adapter in",
           "`scripts/adapters/` that injects our test roots and the case's time and maps the library's own errors to",
           "rules (each adapter's README lists them). A **pass** is evidence: a refusal counts only when the library",
           "accepted the case's control (its valid twin) in the same run; it is proven by *reason and control* when",
           "the library's error names the broken rule, by *control only* when its error names no rule, and an",
           "acceptance by its *outcome*. *unconfirmed*: refused, but the control was refused too, so the refusal",
           "shows nothing. *masked*: refused for another rule's reason. **crash**: the library raised something that",
           "is not one of its verification errors (never a refusal). **finding**: the library's verdict differs from",
           "the expectation on a rule it claims. *policy*: a rule the library leaves to its caller, by its own",
           "documentation, whatever the verdict (a right one came from the caller's side, the adapter's code, and is",
           "no pass of the library's). *unsupported*: a format, algorithm or feature (FIDO metadata) the library does not",
           "implement, answered apart from pass and finding. *either*: the specification leaves the verdict to the",
           "relying party, so the library's choice is shown and is neither. Findings are counted in cases, split by the level of the",
           "rule each breaks.", ""]
    out += ["| library | profile | cases | passes (reason and control / control only / outcome) | findings (MUST / SHOULD / POLICY rules) | crashes | unconfirmed | masked | either | policy | unsupported | errors |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    causes = load_causes()
    uncaused = []
    by_profile = defaultdict(list)
    for adapter, report in runs:
        counts = defaultdict(int)
        by_level = defaultdict(int)
        by_proof = defaultdict(int)
        for result in report["results"]:
            kind, detail = classify(result, adapter)
            counts[kind] += 1
            if kind == "agree":
                by_proof[detail] += 1
            if kind == "finding":  # a valid case refused breaks no rule: counted with the MUSTs
                by_level[levels.get(result.get("rule"), "MUST") if result.get("rule") else "MUST"] += 1
        split = " / ".join(str(by_level[level]) for level in ["MUST", "SHOULD", "POLICY"])
        proofs = " / ".join(str(by_proof[proof]) for proof in PROOFS)
        out.append(f"| {adapter['name']} ({adapter['package']}) | {report['profile']} | {len(report['results'])} | "
                   f"{counts['agree']} ({proofs}) | {counts['finding']} ({split}) | {counts['crash']} | {counts['unconfirmed']} | "
                   f"{counts['masked']} | {counts['acceptable']} | {counts['policy']} | {counts['unsupported']} | {counts['error']} |")
        by_profile[report["profile"]].append((adapter, report))
    documented = [(adapter["name"], adapter["documentedLevel"]) for adapter, _ in runs if adapter.get("documentedLevel")]
    if documented:
        out += ["", "Each WebAuthn library is judged by the level it documents:", ""]
        out += [f"- {name}: {level}" for name, level in dict(documented).items()]
    for profile, entries in by_profile.items():
        out += ["", f"## {profile}", ""]
        names = [adapter["name"] for adapter, _ in entries]
        results = [{r["caseId"]: r for r in report["results"]} for _, report in entries]
        case_ids = [r["caseId"] for r in entries[0][1]["results"]]
        rules = defaultdict(list)
        for case_id in case_ids:
            rules[results[0][case_id].get("rule") or "valid"].append(case_id)
        for rule, ids in rules.items():
            rows = []
            for case_id in ids:
                cells = []
                for (adapter, _), by_id in zip(entries, results):
                    kind, detail = classify(by_id[case_id], adapter)
                    if kind in ("finding", "crash"):
                        bug = cause_of(causes, adapter["name"], case_id)
                        if bug:
                            detail += f" (cause: `{bug['cite']}`)"
                        elif (adapter["name"], case_id, kind) not in uncaused:
                            uncaused.append((adapter["name"], case_id, kind))
                    cells.append({"agree": "ok" if detail != "control" else "ok (control only)",
                                  "finding": f"**finding**: {detail}", "crash": f"**crash**: {detail}",
                                  "unconfirmed": f"*unconfirmed*: {detail}", "masked": f"*masked*: {detail}",
                                  "acceptable": f"*either*: {detail}",
                                  "policy": f"*policy*: {detail}",
                                  "unsupported": f"*unsupported*: {detail}", "error": f"error: {detail}"}[kind])
                rows.append((case_id, results[0][case_id], cells))
            level = f" ({levels[rule]})" if rule in levels else ""
            if all(cell.startswith("ok") for _, _, cells in rows for cell in cells):
                controls = sum(cell == "ok (control only)" for _, _, cells in rows for cell in cells)
                note = f" ({controls} proven by control only)" if controls else ""
                out.append(f"- `{rule}`{level}: all {len(ids)} case(s) agree in {', '.join(names)}{note}")
                continue
            out += ["", f"### `{rule}`{level}", "", "| case | expected | " + " | ".join(names) + " |",
                    "|---|---|" + "---|" * len(names)]
            for case_id, first, cells in rows:
                # Every rule of a claimed profile is enforced, so a case expects rejection exactly when it breaks one.
                expected = "either" if first.get("status") == "acceptable" or first.get("expected") == "either" \
                    else "accept" if first.get("rule") is None else "reject"
                out.append(f"| `{case_id}` | {expected} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
            out.append("")
    out += confirmed_bugs(causes, levels, uncaused)
    print("\n".join(out).rstrip() + "\n")
    if html_path:
        from results_html import render
        with open(html_path, "w", encoding="utf-8") as page:
            page.write(render(runs, classify, levels))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    html_path = None
    if arguments[:1] == ["--html"] and len(arguments) > 1:
        html_path, arguments = arguments[1], arguments[2:]
    main(arguments, html_path)
