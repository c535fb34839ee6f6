"""The corpus the fidelity tests compare against, or a skip saying in one line where it was looked for
(CI has it at ../shared/corpus and .ci/run refuses to go on without it)."""

from __future__ import annotations

import pytest

from harness.recording._corpus import Corpus, absent_reason, locate, open_corpus


def corpus_or_skip() -> Corpus:
    where = locate()
    corpus = open_corpus(where)
    if corpus is None:
        pytest.skip(absent_reason(where), allow_module_level=True)
    return corpus
