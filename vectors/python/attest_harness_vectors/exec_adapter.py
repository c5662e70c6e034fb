"""The exec contract (exec-contract.md, shipped beside the vector files) for Python verifier adapters: read the
suite on stdin, call `verify(kind, inputs, context, state)` for every step (a fresh `state` per case), write the
results on stdout.

    from attest_harness_vectors.exec_adapter import Unsupported, run

    def verify(kind, inputs, context, state):        # inputs: {"challenge": b"...", ...}
        if kind != "webauthn.registration":
            raise Unsupported(kind)                   # answered "unsupported", never a verdict
        my_library.verify(inputs["attestationObject"], now=context["time"], roots=context["trustAnchors"])

    if __name__ == "__main__":
        run("my-library", verify)

`verify` returning None accepts the step; returning a verdict mapping (`{"outcome": "reject", "rule": ...,
"status": "403"}`) answers that verdict; `Unsupported` says the library cannot judge the step. `context` is the
case's context (`time`, `trustAnchors`, `parameters`) plus `stepTime`, the step's own time or None.

An exception from `verify` is a rejection only when it is one of the library's verification errors, as a relying
party that calls the library would treat it: name them with `refusals=(LibraryError, ...)`. Any other exception (a
`TypeError` or `KeyError` from a parser, a bug in the adapter) is answered `crash` with its text: the library failed
on the evidence, which is never a refusal. Without `refusals`, every exception but Python's programming errors
(`PROGRAMMING_ERRORS`) is a refusal. `rules=[(LibraryError, r"pattern", "rule.id"), ...]` names the catalogue rule a
refusal is under: the first entry whose type matches and whose pattern `re.search`es the exception's text wins, so
that the harness can prove the refusal by its reason (a refusal naming another rule than the case's is reported
masked, never a pass).

    run("my-library", verify, refusals=(my_library.VerificationError,),
        rules=[(my_library.VerificationError, r"challenge", "webauthn.challenge")])

A suite on stdin that is not an `attest-harness-exec-suite/1` document is one line on stderr and exit status 2,
which the harness reports as a harness error for the case, never as a verdict (the contract's item 3).
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import sys
from typing import IO, Any, Callable, Dict, List, Mapping, NoReturn, Optional, Sequence, Tuple, Type, TypedDict

__all__ = [
    "EXEC_RESULTS_FORMAT", "EXEC_SUITE_FORMAT", "PROGRAMMING_ERRORS", "REASON_LIMIT", "RuleMap",
    "ContractError", "Unsupported", "Verify",
    "ExecCase", "ExecContext", "ExecProfile", "ExecResults", "ExecStep", "ExecSuite", "CaseResult", "Verdict",
    "b64url", "decode_inputs", "is_refusal", "read_suite", "results_document", "run", "write_results",
]

EXEC_SUITE_FORMAT = "attest-harness-exec-suite/1"
EXEC_RESULTS_FORMAT = "attest-harness-exec-results/1"
#: Reasons are cut to this many characters: enough to read, never a megabyte of library traceback.
REASON_LIMIT = 400
VERDICT_OUTCOMES = ("accept", "reject", "unsupported", "crash")
#: Exceptions that say code went wrong, not that evidence was refused: without an adapter's own `refusals`, these are
#: answered `crash`.
PROGRAMMING_ERRORS: Tuple[Type[BaseException], ...] = (
    TypeError, AttributeError, NameError, KeyError, IndexError, AssertionError, RecursionError, MemoryError,
    ZeroDivisionError, NotImplementedError, UnboundLocalError)
#: (exception type, regular expression searched in its text, rule id): which rule a refusal is under.
RuleMap = Sequence[Tuple[Type[BaseException], str, str]]


class Unsupported(Exception):
    """A step the library cannot judge (a step kind or format it lacks): answered `unsupported`, never a verdict."""


class ContractError(ValueError):
    """Input that is not an exec suite document (exec-suite.schema.json), or a verdict that breaks the contract."""


# The documents of exec-suite.schema.json and exec-results.schema.json, as they are read and written.

class ExecProfile(TypedDict):
    name: str
    rules: List[str]
    parameters: Dict[str, str]


class ExecContext(TypedDict):
    time: str
    trustAnchors: List[str]
    parameters: Dict[str, str]


class _ExecStepRequired(TypedDict):
    kind: str
    inputs: Dict[str, str]


class ExecStep(_ExecStepRequired, total=False):
    time: str


class ExecCase(TypedDict):
    id: str
    family: str
    context: ExecContext
    steps: List[ExecStep]


class ExecSuite(TypedDict):
    format: str
    profile: ExecProfile
    cases: List[ExecCase]


class _VerdictRequired(TypedDict):
    outcome: str  # "accept", "reject", "unsupported" or "crash"


class Verdict(_VerdictRequired, total=False):
    reason: str
    rule: str
    status: str


class CaseResult(TypedDict):
    id: str
    verdicts: List[Verdict]


class ExecResults(TypedDict):
    format: str
    harness: str
    results: List[CaseResult]


#: verify(kind, inputs, context, state) -> None (accept) or a Verdict.
Verify = Callable[[str, Dict[str, bytes], Dict[str, Any], Any], Optional[Mapping[str, Any]]]


def b64url(data: bytes) -> str:
    """Unpadded base64url, as WebAuthn's JSON serialisations spell bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def read_suite(stream: Optional[IO[bytes]] = None) -> ExecSuite:
    """The exec suite on `stream` (default: stdin), checked against exec-suite.schema.json's shape; ContractError
    when it is not one."""
    source = stream if stream is not None else sys.stdin.buffer
    data = source.read()
    try:
        document = json.loads(data)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
        raise ContractError(f"stdin is not JSON: {error}") from None
    _check_suite(document)
    suite: ExecSuite = document
    return suite


def decode_inputs(step: ExecStep) -> Dict[str, bytes]:
    """A step's inputs as bytes (they travel as standard base64)."""
    inputs: Dict[str, bytes] = {}
    for key, value in step["inputs"].items():
        try:
            inputs[key] = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ContractError(f"input {key!r} of a {step['kind']} step is not standard base64") from None
    return inputs


def results_document(harness: str, results: List[CaseResult]) -> ExecResults:
    return {"format": EXEC_RESULTS_FORMAT, "harness": harness, "results": results}


def write_results(harness: str, results: List[CaseResult], stream: Optional[IO[str]] = None) -> None:
    """The results document on `stream` (default: stdout), flushed."""
    target = stream if stream is not None else sys.stdout
    json.dump(results_document(harness, results), target)
    target.write("\n")
    target.flush()


def run(name: str, verify: Verify, new_state: Callable[[], Any] = dict, *,
        refusals: Optional[Tuple[Type[BaseException], ...]] = None, rules: RuleMap = (),
        stdin: Optional[IO[bytes]] = None, stdout: Optional[IO[str]] = None) -> None:
    """The whole adapter: read the suite, verify every step of every case with a fresh `new_state()` per case, and
    write the results. `refusals` are the library's verification errors (answered `reject`; anything else raised is
    `crash`), `rules` map them to rule ids. Exits 2 with one line on stderr when stdin is not an exec suite."""
    compiled = [(kind, re.compile(pattern), rule) for kind, pattern, rule in rules]
    try:
        suite = read_suite(stdin)
        results: List[CaseResult] = []
        for case in suite["cases"]:
            state = new_state()
            verdicts: List[Verdict] = []
            for step in case["steps"]:
                inputs = decode_inputs(step)
                context: Dict[str, Any] = dict(case["context"], stepTime=step.get("time"))
                verdicts.append(_judge(verify, step["kind"], inputs, context, state, refusals, compiled))
            results.append({"id": case["id"], "verdicts": verdicts})
    except ContractError as error:
        _fail(name, str(error))
    write_results(name, results, stdout)


def _judge(verify: Verify, kind: str, inputs: Dict[str, bytes], context: Dict[str, Any], state: Any,
           refusals: Optional[Tuple[Type[BaseException], ...]],
           rules: Sequence[Tuple[Type[BaseException], "re.Pattern[str]", str]]) -> Verdict:
    try:
        answer = verify(kind, inputs, context, state)
    except Unsupported as error:
        return {"outcome": "unsupported", "reason": str(error)[:REASON_LIMIT]}
    except Exception as error:  # the library refused, or failed on, the evidence
        text = f"{type(error).__name__}: {error}"
        if not is_refusal(error, refusals):
            return {"outcome": "crash", "reason": text[:REASON_LIMIT]}
        verdict: Verdict = {"outcome": "reject", "reason": text[:REASON_LIMIT]}
        rule = next((rule for kind_, pattern, rule in rules if isinstance(error, kind_) and pattern.search(text)), None)
        if rule is not None:
            verdict["rule"] = rule
        return verdict
    if answer is None:
        return {"outcome": "accept"}
    return _verdict(answer)


def is_refusal(error: BaseException, refusals: Optional[Tuple[Type[BaseException], ...]] = None) -> bool:
    """Whether `error` is a verification error (a refusal) rather than a crash: one of `refusals`, or without them
    any exception that is not a programming error."""
    if refusals is not None:
        return isinstance(error, refusals)
    return not isinstance(error, PROGRAMMING_ERRORS)


def _verdict(answer: Any) -> Verdict:
    if not isinstance(answer, Mapping) or answer.get("outcome") not in VERDICT_OUTCOMES:
        raise ContractError(f"verify returned {answer!r}: not None and not a verdict "
                            f"({{'outcome': {' | '.join(VERDICT_OUTCOMES)}, ...}})")
    verdict: Verdict = {"outcome": answer["outcome"]}
    for key in ("reason", "rule", "status"):
        value = answer.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise ContractError(f"verdict member {key!r} is {type(value).__name__}, not a string")
        verdict[key] = value[:REASON_LIMIT] if key == "reason" else value
    unknown = sorted(set(answer) - {"outcome", "reason", "rule", "status"})
    if unknown:
        raise ContractError(f"verdict member {unknown[0]!r} is not in exec-results.schema.json")
    return verdict


def _fail(name: str, message: str) -> NoReturn:
    sys.stderr.write(f"{name}: {message}\n")
    sys.stderr.flush()
    sys.exit(2)


def _check_suite(document: Any) -> None:
    """exec-suite.schema.json's required members and their types (what the loop above relies on)."""
    def need(value: Any, kind: type, where: str) -> None:
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ContractError(f"{where}: expected {kind.__name__}, found {type(value).__name__}")

    need(document, dict, "suite")
    if document.get("format") != EXEC_SUITE_FORMAT:
        raise ContractError(f"format is {document.get('format')!r}, not {EXEC_SUITE_FORMAT!r}")
    need(document.get("profile"), dict, "profile")
    need(document.get("cases"), list, "cases")
    for index, case in enumerate(document["cases"]):
        where = f"cases[{index}]"
        need(case, dict, where)
        need(case.get("id"), str, f"{where}.id")
        need(case.get("context"), dict, f"{where}.context")
        need(case["context"].get("time"), str, f"{where}.context.time")
        need(case["context"].get("trustAnchors"), list, f"{where}.context.trustAnchors")
        need(case["context"].get("parameters"), dict, f"{where}.context.parameters")
        need(case.get("steps"), list, f"{where}.steps")
        for number, step in enumerate(case["steps"]):
            need(step, dict, f"{where}.steps[{number}]")
            need(step.get("kind"), str, f"{where}.steps[{number}].kind")
            need(step.get("inputs"), dict, f"{where}.steps[{number}].inputs")
            for key, value in step["inputs"].items():
                need(value, str, f"{where}.steps[{number}].inputs.{key}")
            if "time" in step:
                need(step["time"], str, f"{where}.steps[{number}].time")
