"""The vector suite format `attest-harness-vectors/1` (schema.json beside the vector files) as typed, immutable
Python objects, and its decoder.

Decoding is lenient by default, as the Swift decoder is: members a newer harness adds are ignored and vocabulary
(levels, bug classes, importances, outcomes) passes through as written, so a program built against this version
still reads newer files of the same format. `strict=True` decodes as schema.json validates: unknown members,
unknown vocabulary and a wrong `numberOfCases` are errors (what scripts/check-vector-packages uses to catch drift
between the generator and these types). Either way the format must be `attest-harness-vectors/1`, every required
member must be there with its JSON type, and step inputs must be standard base64; they are decoded to bytes.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Dict, Iterable, List, Literal, Mapping, NewType, Optional, Tuple, TypeVar

SUITE_FORMAT = "attest-harness-vectors/1"

# The harness's vocabulary: strings on the wire, distinct types for a type checker (as in Swift's AttestEvidence,
# `StepKind("webauthn.registration")`, `InputKey("challenge")`). Which inputs each step kind has is described, per
# suite, in `Suite.step_kinds`.
FamilyName = NewType("FamilyName", str)
StepKind = NewType("StepKind", str)
InputKey = NewType("InputKey", str)
RuleId = NewType("RuleId", str)
ProfileName = NewType("ProfileName", str)
CaseId = NewType("CaseId", str)

Outcome = Literal["accept", "reject"]
Level = Literal["MUST", "SHOULD", "POLICY"]
BugClass = Literal["binding", "trust", "replay", "policy", "parsing", "signature"]
Importance = Literal["critical", "high", "medium", "low"]

#: "either": the specification leaves the verdict to the relying party; accepting and refusing both conform.
OUTCOMES: Tuple[str, ...] = ("accept", "reject", "either")
LEVELS: Tuple[str, ...] = ("MUST", "SHOULD", "POLICY")
BUG_CLASSES: Tuple[str, ...] = ("binding", "trust", "replay", "policy", "parsing", "signature")
IMPORTANCES: Tuple[str, ...] = ("critical", "high", "medium", "low")


class VectorFormatError(ValueError):
    """A document that does not decode as a vector suite; the message starts with the JSON pointer at fault."""

    def __init__(self, pointer: str, message: str, file: Optional[str] = None) -> None:
        super().__init__(f"{file + ': ' if file else ''}{pointer or '/'}: {message}")
        self.pointer = pointer
        self.detail = message
        self.file = file


@dataclass(frozen=True)
class Rule:
    """A rule the cases test: `statement` is what a verifier must do, `source` where it is written."""
    id: RuleId
    statement: str
    level: Level
    source: str
    bug_class: BugClass
    references: Tuple[str, ...]
    quote: Optional[str] = None
    owner_verifier: Optional[str] = None
    #: The edition of its source since which the rule holds ("WebAuthn Level 2"); None for a source of one edition.
    since: Optional[str] = None


@dataclass(frozen=True)
class Profile:
    """A verifier configuration the cases are judged under: the families it covers, the rules it enforces, and the
    parameters (rpId, appId, ...) a verifier needs."""
    name: ProfileName
    description: str
    families: Tuple[FamilyName, ...]
    rules: Tuple[RuleId, ...]
    parameters: Mapping[str, str]
    #: Rules whose verdict the profile leaves to the relying party: a step breaking one expects either verdict.
    left_to_relying_party: Tuple[RuleId, ...] = ()


@dataclass(frozen=True)
class Context:
    """How to configure a fresh verifier session for a case: the time to treat as now (UTC), the PEM trust
    anchors, and the parameters (appId, rpId, origins, ...)."""
    time: datetime
    trust_anchors: Tuple[str, ...]
    parameters: Mapping[str, str]


@dataclass(frozen=True)
class Step:
    """One request to the verifier: its kind, its byte-string inputs (decoded), the rule it breaks (if any), the
    time it arrives (None: the case's `context.time`) and the status a real API answers it with (if known)."""
    kind: StepKind
    inputs: Mapping[InputKey, bytes]
    breaks: Optional[RuleId] = None
    time: Optional[datetime] = None
    expected_status: Optional[str] = None
    #: The specification leaves this step's verdict to the relying party: either verdict conforms.
    either: bool = False
    #: Nothing can be read past what this step breaks: refused under every profile, also one without `breaks`.
    unreadable: bool = False
    #: This step goes over an earlier step's ceremony again: ("replay" or "answer", that step's index); a verifier
    #: sees its inputs as they are (a replay has the earlier step's inputs exactly).
    repeats: Optional[Tuple[str, int]] = None

    def input(self, key: str) -> bytes:
        """The input named `key`; KeyError naming the step's inputs when it has none of that name."""
        try:
            return self.inputs[InputKey(key)]
        except KeyError:
            raise KeyError(f"step {self.kind} has no input {key!r} (it has {', '.join(sorted(self.inputs))})") from None


@dataclass(frozen=True)
class Case:
    """One case: run its steps in order in one fresh verifier session configured from `context`, and compare each
    verdict with `expected[profile][step index]`."""
    id: CaseId
    description: str
    importance: Importance
    context: Context
    steps: Tuple[Step, ...]
    expected: Mapping[ProfileName, Tuple[Outcome, ...]]
    rule: Optional[RuleId] = None
    anchors: Tuple[str, ...] = ()
    #: The public bugs, advisories and library faults the case would have caught.
    references: Tuple[str, ...] = ()
    #: A negative case's valid twin (same baseline, no mutation): count a refusal as a pass only when the verifier
    #: accepted the control in the same run. None for valid cases.
    control: Optional[CaseId] = None

    def expected_for(self, profile: str) -> Optional[Tuple[Outcome, ...]]:
        """One expected outcome per step under `profile`, or None when the case is not part of that profile."""
        return self.expected.get(ProfileName(profile))

    def time_of(self, step: Step) -> datetime:
        """When `step` arrives: its own time, else the case's."""
        return step.time if step.time is not None else self.context.time


@dataclass(frozen=True)
class Suite:
    """One evidence family's vector file."""
    format: str
    family: FamilyName
    seed: int
    step_kinds: Mapping[StepKind, str]
    rules: Tuple[Rule, ...]
    profiles: Tuple[Profile, ...]
    number_of_cases: int
    cases: Tuple[Case, ...]

    def rule(self, rule_id: str) -> Optional[Rule]:
        return next((rule for rule in self.rules if rule.id == rule_id), None)

    def profile(self, name: str) -> Optional[Profile]:
        return next((profile for profile in self.profiles if profile.name == name), None)

    def case(self, case_id: str) -> Optional[Case]:
        return next((case for case in self.cases if case.id == case_id), None)

    def cases_for(self, profile: str) -> List[Case]:
        """The cases that have expectations under `profile`."""
        return [case for case in self.cases if ProfileName(profile) in case.expected]


# MARK: Decoding

T = TypeVar("T")


class _Decoder:
    def __init__(self, strict: bool) -> None:
        self.strict = strict

    def object(self, value: Any, pointer: str, required: Iterable[str], optional: Iterable[str] = ()) -> Dict[str, Any]:
        if not isinstance(value, dict):
            raise VectorFormatError(pointer, f"expected an object, found {_kind(value)}")
        required = tuple(required)
        for key in required:
            if key not in value:
                raise VectorFormatError(pointer, f"missing member {key!r}")
        if self.strict:
            known = set(required) | set(optional)
            unknown = sorted(key for key in value if key not in known)
            if unknown:
                raise VectorFormatError(pointer, f"unknown member {unknown[0]!r} (schema.json allows no others)")
        return value

    @staticmethod
    def string(value: Any, pointer: str) -> str:
        if not isinstance(value, str):
            raise VectorFormatError(pointer, f"expected a string, found {_kind(value)}")
        return value

    @staticmethod
    def integer(value: Any, pointer: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise VectorFormatError(pointer, f"expected a non-negative integer, found {_kind(value)}")
        return value

    def optional_string(self, document: Mapping[str, Any], key: str, pointer: str) -> Optional[str]:
        return self.string(document[key], f"{pointer}/{key}") if key in document else None

    def word(self, value: Any, pointer: str, vocabulary: Tuple[str, ...]) -> Any:
        text = self.string(value, pointer)
        if self.strict and text not in vocabulary:
            raise VectorFormatError(pointer, f"{text!r} is none of {', '.join(vocabulary)}")
        return text

    @staticmethod
    def array(value: Any, pointer: str, element: Callable[[Any, str], T]) -> Tuple[T, ...]:
        if not isinstance(value, list):
            raise VectorFormatError(pointer, f"expected an array, found {_kind(value)}")
        return tuple(element(item, f"{pointer}/{index}") for index, item in enumerate(value))

    @staticmethod
    def mapping(value: Any, pointer: str, element: Callable[[Any, str], T]) -> Dict[str, T]:
        if not isinstance(value, dict):
            raise VectorFormatError(pointer, f"expected an object, found {_kind(value)}")
        return {key: element(item, f"{pointer}/{_escape(key)}") for key, item in value.items()}

    def strings(self, value: Any, pointer: str) -> Tuple[str, ...]:
        return self.array(value, pointer, self.string)

    def string_map(self, value: Any, pointer: str) -> Dict[str, str]:
        return self.mapping(value, pointer, self.string)

    def time(self, value: Any, pointer: str) -> datetime:
        text = self.string(value, pointer)
        try:
            moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
        except ValueError:
            raise VectorFormatError(pointer, f"{text!r} is not an RFC 3339 date-time") from None
        if moment.tzinfo is None:
            raise VectorFormatError(pointer, f"{text!r} has no time zone")
        return moment

    def base64(self, value: Any, pointer: str) -> bytes:
        text = self.string(value, pointer)
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise VectorFormatError(pointer, "not standard base64") from None

    # The schema's definitions.

    def rule(self, value: Any, pointer: str) -> Rule:
        d = self.object(value, pointer, ("id", "statement", "level", "source", "bugClass", "references"), ("quote", "ownerVerifier", "since"))
        return Rule(id=RuleId(self.string(d["id"], f"{pointer}/id")),
                    statement=self.string(d["statement"], f"{pointer}/statement"),
                    level=self.word(d["level"], f"{pointer}/level", LEVELS),
                    source=self.string(d["source"], f"{pointer}/source"),
                    bug_class=self.word(d["bugClass"], f"{pointer}/bugClass", BUG_CLASSES),
                    references=self.strings(d["references"], f"{pointer}/references"),
                    quote=self.optional_string(d, "quote", pointer),
                    owner_verifier=self.optional_string(d, "ownerVerifier", pointer),
                    since=self.optional_string(d, "since", pointer))

    def profile(self, value: Any, pointer: str) -> Profile:
        d = self.object(value, pointer, ("name", "description", "families", "rules", "parameters"), ("leftToRelyingParty",))
        return Profile(name=ProfileName(self.string(d["name"], f"{pointer}/name")),
                       description=self.string(d["description"], f"{pointer}/description"),
                       families=tuple(FamilyName(f) for f in self.strings(d["families"], f"{pointer}/families")),
                       rules=tuple(RuleId(r) for r in self.strings(d["rules"], f"{pointer}/rules")),
                       parameters=self.string_map(d["parameters"], f"{pointer}/parameters"),
                       left_to_relying_party=tuple(RuleId(r) for r in self.strings(d.get("leftToRelyingParty", []), f"{pointer}/leftToRelyingParty")))

    def context(self, value: Any, pointer: str) -> Context:
        d = self.object(value, pointer, ("time", "trustAnchors", "parameters"))
        return Context(time=self.time(d["time"], f"{pointer}/time"),
                       trust_anchors=self.strings(d["trustAnchors"], f"{pointer}/trustAnchors"),
                       parameters=self.string_map(d["parameters"], f"{pointer}/parameters"))

    def step(self, value: Any, pointer: str) -> Step:
        d = self.object(value, pointer, ("kind", "inputs"), ("breaks", "time", "expectedStatus", "either", "unreadable", "repeats"))
        for flag in ("either", "unreadable"):
            if flag in d and d[flag] is not True:
                raise VectorFormatError(f"{pointer}/{flag}", "is true when present")
        repeats = None
        if "repeats" in d:
            r = self.object(d["repeats"], f"{pointer}/repeats", ("as", "step"))
            how = self.word(r["as"], f"{pointer}/repeats/as", ("replay", "answer"))
            step = r["step"]
            if not isinstance(step, int) or isinstance(step, bool) or step < 0:
                raise VectorFormatError(f"{pointer}/repeats/step", "is a step index")
            repeats = (how, step)
        inputs = self.mapping(d["inputs"], f"{pointer}/inputs", self.base64)
        breaks = self.optional_string(d, "breaks", pointer)
        return Step(kind=StepKind(self.string(d["kind"], f"{pointer}/kind")),
                    inputs={InputKey(key): data for key, data in inputs.items()},
                    breaks=RuleId(breaks) if breaks is not None else None,
                    time=self.time(d["time"], f"{pointer}/time") if "time" in d else None,
                    expected_status=self.optional_string(d, "expectedStatus", pointer),
                    either="either" in d, unreadable="unreadable" in d, repeats=repeats)

    def outcomes(self, value: Any, pointer: str) -> Tuple[Outcome, ...]:
        return self.array(value, pointer, lambda item, at: self.word(item, at, OUTCOMES))

    def case(self, value: Any, pointer: str) -> Case:
        d = self.object(value, pointer, ("id", "description", "importance", "context", "steps", "expected"),
                        ("rule", "anchors", "references", "control"))
        steps = self.array(d["steps"], f"{pointer}/steps", self.step)
        if not steps:
            raise VectorFormatError(f"{pointer}/steps", "a case has at least one step")
        expected = self.mapping(d["expected"], f"{pointer}/expected", self.outcomes)
        if self.strict:
            for profile, outcomes in expected.items():
                if len(outcomes) != len(steps):
                    raise VectorFormatError(f"{pointer}/expected/{_escape(profile)}",
                                            f"{len(outcomes)} outcomes for {len(steps)} steps")
        rule = self.optional_string(d, "rule", pointer)
        return Case(id=CaseId(self.string(d["id"], f"{pointer}/id")),
                    description=self.string(d["description"], f"{pointer}/description"),
                    importance=self.word(d["importance"], f"{pointer}/importance", IMPORTANCES),
                    context=self.context(d["context"], f"{pointer}/context"),
                    steps=steps,
                    expected={ProfileName(name): outcomes for name, outcomes in expected.items()},
                    rule=RuleId(rule) if rule is not None else None,
                    anchors=self.strings(d["anchors"], f"{pointer}/anchors") if "anchors" in d else (),
                    references=self.strings(d["references"], f"{pointer}/references") if "references" in d else (),
                    control=CaseId(control) if (control := self.optional_string(d, "control", pointer)) is not None else None)

    def suite(self, value: Any) -> Suite:
        d = self.object(value, "", ("format", "family", "seed", "stepKinds", "rules", "profiles", "numberOfCases",
                                    "cases"))
        format = self.string(d["format"], "/format")
        if format != SUITE_FORMAT:
            raise VectorFormatError("/format", f"{format!r} is not {SUITE_FORMAT!r}")
        cases = self.array(d["cases"], "/cases", self.case)
        number_of_cases = self.integer(d["numberOfCases"], "/numberOfCases")
        if self.strict and number_of_cases != len(cases):
            raise VectorFormatError("/numberOfCases", f"{number_of_cases}, but the suite has {len(cases)} cases")
        step_kinds = self.string_map(d["stepKinds"], "/stepKinds")
        return Suite(format=format,
                     family=FamilyName(self.string(d["family"], "/family")),
                     seed=self.integer(d["seed"], "/seed"),
                     step_kinds={StepKind(kind): text for kind, text in step_kinds.items()},
                     rules=self.array(d["rules"], "/rules", self.rule),
                     profiles=self.array(d["profiles"], "/profiles", self.profile),
                     number_of_cases=number_of_cases,
                     cases=cases)


def decode_suite(document: Any, *, strict: bool = False) -> Suite:
    """A parsed JSON document (from `json.load`) as a `Suite`; VectorFormatError when it is not one."""
    return _Decoder(strict).suite(document)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "an integer", float: "a number"}.get(
        type(value), type(value).__name__)


def _escape(key: str) -> str:
    """A member name as a JSON pointer token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")
