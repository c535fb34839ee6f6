"""Mock fidelity: the mock upstream compared with real recorded traffic (the corpus in
``recordings/corpus/``), per dialect: event grammar, fields and their types, headers clients read,
request-dependent behaviour. ``nox -s fidelity`` writes docs/fidelity.md from :func:`compare_corpus`;
``tests/fidelity`` fails when an emitter drifts from the corpus."""

from harness.fidelity._compare import SDK_HEADERS, Difference, FidelityReport, compare_corpus
from harness.fidelity._corpus import PERMISSIVE_LICENSES, CorpusExchange, CorpusFile, load_corpus
from harness.fidelity._kept import KEPT, Kept
from harness.fidelity._rules import RULES, Rule

__all__ = [
    "KEPT",
    "PERMISSIVE_LICENSES",
    "RULES",
    "SDK_HEADERS",
    "CorpusExchange",
    "CorpusFile",
    "Difference",
    "FidelityReport",
    "Kept",
    "Rule",
    "compare_corpus",
    "load_corpus",
]
