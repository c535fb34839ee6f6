"""The shared readers of untrusted wire JSON (``_values``) and the line-framed observer front half
(``_framed``), on the values and frames that tell their cases apart."""

from __future__ import annotations

import pytest

from harness.codec import JSONLDecoder
from harness.dialects._framed import FramedObserver, json_frame
from harness.dialects._values import json_args, mapping, opt_str, string, unknown_fields
from harness.events import Event, Notice


@pytest.mark.parametrize(
    ("value", "as_opt", "as_string", "as_mapping"),
    [
        ("id", "id", "id", {}),
        ("", "", "", {}),
        (None, None, "", {}),
        (7, None, "", {}),
        ({"a": 1}, None, "", {"a": 1}),
    ],
)
def test_a_value_is_kept_only_with_its_type(
    value: object, as_opt: object, as_string: str, as_mapping: object
) -> None:
    assert (opt_str(value), string(value), mapping(value)) == (as_opt, as_string, as_mapping)


def test_unknown_fields_are_named_with_their_place() -> None:
    assert unknown_fields({"a": 1, "b": 2, "c": 3}, {"a"}, "x.") == [
        Notice("unknown-field", "x.b"),
        Notice("unknown-field", "x.c"),
    ]


@pytest.mark.parametrize(
    ("text", "value"), [("", {}), ("  ", {}), ('{"a":1}', {"a": 1}), ("{oops", {"arguments": "{oops"})]
)
def test_json_args(text: str, value: object) -> None:
    assert json_args(text) == value


class _Lines(FramedObserver[str]):
    def __init__(self) -> None:
        super().__init__(JSONLDecoder(), "jsonl")
        self.ended = False

    def _take(self, line: str, out: list[Event]) -> None:
        if self.ended:
            self._after_end(line, out)
        elif json_frame(line, out) == {"end": True}:
            self.ended = True

    def _eof(self) -> list[Event]:
        return [] if self.ended else [Notice("no-terminator")]


def test_framed_observer_notes_bad_frames_anomalies_and_data_after_the_end_once() -> None:
    obs = _Lines()
    events = obs.feed(b'{bad\n[1]\n{"end": true}\r\n{"x": 1}\n{"y": 2}\n') + obs.end()
    assert [e.code for e in events if isinstance(e, Notice)] == [
        "malformed-json",
        "unknown-frame",
        "data-after-end",
        "jsonl-crlf",
    ]


def test_framed_observer_says_what_was_missing_at_eof() -> None:
    obs = _Lines()
    assert obs.feed(b'{"x": 1}') == []
    assert [e.code for e in obs.end() if isinstance(e, Notice)] == ["jsonl-unterminated", "no-terminator"]
