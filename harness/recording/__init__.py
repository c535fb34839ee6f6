"""Recording real gateway frames: cassettes, redaction, the recording proxy, replay and import. The package
turns real traffic into data the mock upstream can serve, so recorded ground truth and scripted cases meet
in one format."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.recording._cassette import Cassette, Chunk, Exchange, read_cassette
from harness.recording._redact import REDACTED, Redactor
from harness.recording._replay import conversation_from_cassette, detect_dialect, parse_timing

__all__ = [
    "REDACTED",
    "Cassette",
    "Chunk",
    "Exchange",
    "Recorder",
    "Redactor",
    "conversation_from_cassette",
    "detect_dialect",
    "parse_timing",
    "read_cassette",
    "record_forever",
]

if TYPE_CHECKING:
    from harness.recording._proxy import Recorder, record_forever

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.recording._corpus import ENV, Location, absent_reason, locate, open_corpus, read_manifest
    from harness.recording._corpus_fetch import DEFAULT_BASE, fetch_corpus
    from harness.recording._import_cli import add_import_parser, run_import
    from harness.recording._proxy import parse_listen

_SHARED = {
    "add_import_parser": "_import_cli",
    "run_import": "_import_cli",
    "DEFAULT_BASE": "_corpus_fetch",
    "ENV": "_corpus",
    "Location": "_corpus",
    "absent_reason": "_corpus",
    "fetch_corpus": "_corpus_fetch",
    "locate": "_corpus",
    "open_corpus": "_corpus",
    "parse_listen": "_proxy",
    "read_manifest": "_corpus",
}
__all__ += [
    "DEFAULT_BASE",
    "ENV",
    "Location",
    "absent_reason",
    "add_import_parser",
    "fetch_corpus",
    "locate",
    "open_corpus",
    "parse_listen",
    "read_manifest",
    "run_import",
]
# The recording proxy's names load on first use, by PEP 562: it imports httpx, which every ``thinkwire
# run`` reading the catalog's cassettes would otherwise pay for.
__getattr__ = lazy_names(__name__, {"Recorder": "_proxy", "record_forever": "_proxy", **_SHARED})
