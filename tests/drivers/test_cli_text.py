"""The plain-text CLI reader (sans-IO) and its profile keys: stderr reasoning, markers on stdout cut at
any byte, the terminal's last newline, exit codes; ``continue`` words placed before the prompt; a wrong
profile gets one line naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness._errors import ProfileError
from harness.drivers import load_profile
from harness.drivers._cli_text import TextReader, continued
from harness.events import End, Event, ReasoningDelta, StreamError, TextDelta


def joined(events: list[Event]) -> tuple[str, str, list[Event]]:
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    return reasoning, text, [e for e in events if isinstance(e, End | StreamError)]


def test_stderr_is_reasoning_and_stdout_the_answer() -> None:
    r = TextReader("stderr")
    events = [*r.stderr(b"Let me "), *r.stderr(b"think."), *r.stdout(b"Hello"), *r.stdout(b"!\n"), *r.end(0)]
    assert joined(events) == ("Let me think.", "Hello!", [End("stop")])


def test_a_newline_inside_the_answer_is_kept_and_only_the_last_is_the_terminals() -> None:
    r = TextReader("stderr")
    events = [*r.stdout(b"one\n"), *r.stdout(b"two\n\n"), *r.end(0)]
    assert joined(events)[1] == "one\ntwo\n"


def test_a_non_zero_exit_is_an_error_the_client_saw_and_a_stop_is_no_end() -> None:
    r = TextReader("stderr")
    assert r.end(3) == [StreamError("the CLI exited with code 3", code="3")]
    assert TextReader("stderr").end(None) == []


def test_invalid_utf8_is_shown_as_a_terminal_shows_it_not_repaired() -> None:
    r = TextReader("stderr")
    events = [*r.stdout("é".encode()[:1]), *r.stdout("é".encode()[1:] + b"\xff"), *r.end(0)]
    assert joined(events)[1] == "é\ufffd"


MARKERS = ("Thinking...\n", "...done thinking.\n\n")
OUT = "Thinking...\nThe user asks.\nPlan: be brief.\n...done thinking.\n\nIt is 18°C.\n"


@given(st.lists(st.integers(min_value=1, max_value=len(OUT.encode())), max_size=12))
def test_markers_on_stdout_read_the_same_at_any_cut(cuts: list[int]) -> None:
    data, r, events, at = OUT.encode(), TextReader("stdout", *MARKERS), [], 0
    for cut in sorted(set(cuts)):
        events += r.stdout(data[at:cut])
        at = cut
    events += [*r.stdout(data[at:]), *r.end(0)]
    assert joined(events) == ("The user asks.\nPlan: be brief.\n", "It is 18°C.", [End("stop")])


def test_reasoning_cut_off_by_the_exit_stays_as_it_was_printed() -> None:
    r = TextReader("stdout", *MARKERS)
    events = [*r.stdout(b"Thinking...\nhalf a thou"), *r.end(1)]
    assert joined(events)[:2] == ("half a thou", "")


def test_continue_words_go_before_the_prompt_or_at_the_end() -> None:
    assert continued(["py", "cli.py", "--model", "m", "{prompt}"], ("-c",)) == [
        "py", "cli.py", "--model", "m", "-c", "{prompt}"]  # fmt: skip
    assert continued(["agent", "--session", "{session}"], ("--resume",)) == [
        "agent", "--session", "{session}", "--resume"]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        ('front_door = "plain-text"', "reasoning_from", "must say where it prints its reasoning"),
        ('front_door = "plain-text"\nreasoning_from = "stdout"\nreasoning_start = "<t>"', "reasoning_end",
         "needs the markers"),
        ('front_door = "pi-json"\nreasoning_from = "stderr"', "reasoning_from",
         "only a plain-text front door"),
        ('front_door = "plain-text"\nreasoning_from = "stdin"', "reasoning_from", "stdin"),
        ('front_door = "pi-json"\ninput = "rpc"\ncontinue = ["-c"]', "continue", 'input = "argv"'),
        ('continue = []', "continue", "no words given"),
    ],
)  # fmt: skip
def test_a_wrong_cli_profile_names_its_field(tmp_path: Path, body: str, field: str, says: str) -> None:
    path = tmp_path / "cli.toml"
    path.write_text(f'kind = "cli"\ncommand = ["my-cli", "{{prompt}}"]\n{body}\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert field in str(info.value)
    assert says in str(info.value)


def test_only_a_cli_prints_plain_text(tmp_path: Path) -> None:
    path = tmp_path / "gw.toml"
    path.write_text('kind = "gateway"\ncommand = ["gw"]\nfront_door = "plain-text"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="only a cli prints plain text"):
        load_profile(path)


def test_a_plain_text_cli_shows_no_tool_calls_and_says_so_in_its_caps(tmp_path: Path) -> None:
    path = tmp_path / "cli.toml"
    path.write_text(
        'kind = "cli"\ncommand = ["my-cli", "{prompt}"]\nfront_door = "plain-text"\n'
        'reasoning_from = "stderr"\ncontinue = ["-c"]\n',
        encoding="utf-8",
    )
    profile = load_profile(path)
    assert profile.continue_words == ("-c",)
    assert profile.abilities.prompted
    assert not profile.abilities.shows_tool_calls
