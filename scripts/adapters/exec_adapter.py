"""Moved: the exec-contract helper is `attest_harness_vectors.exec_adapter` (vectors/python, `pip install ./vectors`).
This shim re-exports it from the checkout for anything that still imports `exec_adapter` from here."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vectors", "python"))
from attest_harness_vectors.exec_adapter import *  # noqa: E402,F401,F403
from attest_harness_vectors.exec_adapter import Unsupported, b64url, run  # noqa: E402,F401
