"""Mock fidelity: the mock upstream compared with real recorded traffic, per dialect, and which wire variants
no recording plays, with why. ``nox -s fidelity`` writes docs/fidelity.md from it, and ``tests/fidelity``
fails when an emitter drifts from the corpus."""

# The comparison covers event grammar, fields and their types, headers clients read, and request-dependent
# behaviour. The corpus is kept outside the project and found by ``harness.recording._corpus``; a variant
# needs either a recording or a reason.
from tools.fidelity._compare import SDK_HEADERS, Difference, FidelityReport, compare_corpus
from tools.fidelity._corpus import (
    PERMISSIVE_LICENSES,
    CorpusAbsent,
    CorpusExchange,
    CorpusFile,
    find_corpus,
    load_corpus,
)
from tools.fidelity._kept import KEPT, Kept
from tools.fidelity._rules import RULES, Rule
from tools.fidelity._uncovered import UNCOVERED, Coverage, coverage

__all__ = [
    "KEPT",
    "PERMISSIVE_LICENSES",
    "RULES",
    "SDK_HEADERS",
    "UNCOVERED",
    "CorpusAbsent",
    "CorpusExchange",
    "CorpusFile",
    "Coverage",
    "Difference",
    "FidelityReport",
    "Kept",
    "Rule",
    "compare_corpus",
    "coverage",
    "find_corpus",
    "load_corpus",
]
