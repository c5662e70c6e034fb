"""attest-harness's deterministic device-attestation vectors (the JSON suites `attest-harness vectors` writes) as
typed Python objects, plus `attest_harness_vectors.exec_adapter`, the exec-contract helper for verifier adapters.

    import attest_harness_vectors as vectors

    for name in vectors.suites():                      # "android-key", "app-attest", "webauthn", ...
        suite = vectors.load_suite(name)
        for case in suite.cases_for("webauthn-l3"):
            session = MyVerifier(case.context)          # a fresh session per case
            for step, expected in zip(case.steps, case.expected_for("webauthn-l3")):
                verdict = session.verify(step.kind, step.input("challenge"), ...)   # inputs are bytes

Installed (`pip install ./vectors`), the files are package data; imported from a checkout's `vectors/python`, they
are the checkout's `vectors/*.json`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from .model import (
    BUG_CLASSES,
    IMPORTANCES,
    LEVELS,
    OUTCOMES,
    SUITE_FORMAT,
    BugClass,
    Case,
    CaseId,
    Context,
    FamilyName,
    Importance,
    InputKey,
    Level,
    Outcome,
    Profile,
    ProfileName,
    Rule,
    RuleId,
    Step,
    StepKind,
    Suite,
    VectorFormatError,
    decode_suite,
)

__all__ = [
    "BUG_CLASSES", "IMPORTANCES", "LEVELS", "OUTCOMES", "SUITE_FORMAT", "SCHEMA_FILES",
    "BugClass", "Case", "CaseId", "Context", "FamilyName", "Importance", "InputKey", "Level", "Outcome", "Profile",
    "ProfileName", "Rule", "RuleId", "Step", "StepKind", "Suite", "VectorFormatError",
    "data_directory", "decode_suite", "load_all", "load_suite", "load_suite_file", "read_file", "schema", "suites",
]

#: The JSON files beside the suites that are not suites: the suite schema and the exec contract's two schemas.
SCHEMA_FILES = ("schema.json", "exec-suite.schema.json", "exec-results.schema.json")


def data_directory() -> Path:
    """Where the vector files are: the package's `data` folder when installed, the checkout's `vectors/` when this
    package is imported from `vectors/python` (as scripts/adapters/ do)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "data", here.parent.parent):
        if (candidate / "schema.json").is_file():
            return candidate
    raise FileNotFoundError(f"no vector files next to {here} (expected {here / 'data'}/schema.json)")


def _is_suite_file(name: str) -> bool:
    return name.endswith(".json") and name not in SCHEMA_FILES and not name.endswith(".schema.json")


def suites() -> List[str]:
    """The name of every vector suite, sorted: its file name without `.json` (`app-attest`, `webauthn`, ...)."""
    return sorted(entry.name[:-len(".json")] for entry in data_directory().iterdir()
                  if entry.is_file() and _is_suite_file(entry.name))


def read_file(name: str) -> bytes:
    """The bytes of one shipped file (`webauthn.json`, `schema.json`, `exec-suite.schema.json`, `exec-contract.md`)."""
    if os.sep in name or "/" in name or name.startswith("."):
        raise ValueError(f"not a vector file name: {name!r}")
    return (data_directory() / name).read_bytes()


def schema(name: str = "schema.json") -> Dict[str, Any]:
    """A shipped JSON Schema, parsed: the suites' (`schema.json`) or the exec contract's
    (`exec-suite.schema.json`, `exec-results.schema.json`)."""
    if name not in SCHEMA_FILES:
        raise KeyError(f"no schema {name!r}; the schemas are {', '.join(SCHEMA_FILES)}")
    document: Dict[str, Any] = json.loads(read_file(name))
    return document


def load_suite(name: str, *, strict: bool = False) -> Suite:
    """The suite `name` (`app-attest` or `app-attest.json`); KeyError naming the suites when there is none.
    `strict`: decode as schema.json validates (see `attest_harness_vectors.model`)."""
    stem = name[:-len(".json")] if name.endswith(".json") else name
    known = suites()
    if stem not in known:
        raise KeyError(f"no vector suite {name!r}; the suites are {', '.join(known)}")
    return load_suite_file(data_directory() / f"{stem}.json", strict=strict)


def load_all(*, strict: bool = False) -> Dict[str, Suite]:
    """Every suite, by name."""
    return {name: load_suite(name, strict=strict) for name in suites()}


def load_suite_file(path: Union[str, "os.PathLike[str]"], *, strict: bool = False) -> Suite:
    """A suite from any file, such as one `attest-harness vectors --seed N --out DIR` wrote."""
    with open(path, "rb") as file:
        document = json.load(file)
    try:
        return decode_suite(document, strict=strict)
    except VectorFormatError as error:
        raise VectorFormatError(error.pointer, error.detail, file=os.fspath(path)) from None


def _version() -> Optional[str]:
    if not (Path(__file__).resolve().parent / "data").is_dir():
        return None  # imported from a checkout, whatever else is installed
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover (Python 3.8 has importlib.metadata)
        return None
    try:
        return version("attest-harness-vectors")
    except PackageNotFoundError:
        return None


#: The installed distribution's version (attest-harness's), or None when imported from a checkout.
__version__ = _version()
