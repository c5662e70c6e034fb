"""The exec contract (vectors/exec-contract.md) for Python verifier adapters: read the suite on stdin, call
`verify(kind, inputs, context, state)` for every step (a fresh `state` per case), write the results on stdout.
An exception from the library is a rejection, as a relying party that calls it would treat it."""
import base64
import json
import sys


class Unsupported(Exception):
    """A step the library cannot judge (a step kind or format it lacks): answered `unsupported`, never a verdict."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def run(name: str, verify, new_state=dict) -> None:
    suite = json.load(sys.stdin)
    results = []
    for case in suite["cases"]:
        state = new_state()
        verdicts = []
        for step in case["steps"]:
            inputs = {key: base64.b64decode(value) for key, value in step["inputs"].items()}
            context = dict(case["context"], stepTime=step.get("time"))
            try:
                verify(step["kind"], inputs, context, state)
                verdicts.append({"outcome": "accept"})
            except Unsupported as error:
                verdicts.append({"outcome": "unsupported", "reason": str(error)[:400]})
            except Exception as error:  # the library refused (or failed on) the evidence
                verdicts.append({"outcome": "reject", "reason": f"{type(error).__name__}: {error}"[:400]})
        results.append({"id": case["id"], "verdicts": verdicts})
    json.dump({"format": "attest-harness-exec-results/1", "harness": name, "results": results}, sys.stdout)
