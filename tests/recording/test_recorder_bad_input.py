"""Bad input to serve, replay, record and promote: one line on stderr naming the flag or the file and
line, what was expected and the fix; exit 2; no traceback, nothing written, nothing left listening."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness.catalog._promote import promote
from harness.cli import main
from harness.recording import Cassette, Chunk, Exchange

CHAT = [
    b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}\n\n',
    b'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n',
    b"data: [DONE]\n\n",
]


def _cassette(path: Path, end: str = "complete") -> Path:
    ex = Exchange(
        "POST", "/v1/chat/completions", [], b"{}", 200, [("content-type", "text/event-stream")], end=end
    )
    off = 0
    for i, c in enumerate(CHAT):
        ex.chunks.append(Chunk(c, off, float(i)))
        off += len(c)
    Cassette([ex], "t", "openai-chat", "http://up").write(path)
    return path


def _edit(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


Case = Callable[[Path, int], list[str]]
CASES: dict[str, tuple[Case, str]] = {
    "serve-dialect": (lambda t, p: ["serve", "--dialect", "openai-chatt"], "--dialect 'openai-chatt'"),
    "serve-variant": (
        lambda t, p: ["serve", "--variant", "reasoning_contnt"],
        "did you mean 'reasoning_content'",
    ),
    "serve-profile": (lambda t, p: ["serve", "--profile", "lenint"], "--profile 'lenint'"),
    "serve-scenario": (
        lambda t, p: ["serve", "--scenario", "no/such/scenario"],
        "--scenario 'no/such/scenario'",
    ),
    "serve-port-busy": (lambda t, p: ["serve", "--port", str(p)], "--port {p}: cannot listen"),
    "serve-port-range": (lambda t, p: ["serve", "--port", "70000"], "--port 70000: expected a TCP port"),
    "serve-grace": (lambda t, p: ["serve", "--grace", "-1"], "--grace -1.0: expected seconds >= 0"),
    "serve-port-file": (
        lambda t, p: ["serve", "--port-file", "/proc/nope/port"],
        "--port-file '/proc/nope/port': cannot be written",
    ),
    "replay-t_ms": (
        lambda t, p: ["replay", str(_edit(_cassette(t / "c.jsonl"), '"t_ms": 1.0', '"t_ms": "soon"'))],
        "c.jsonl:5: 't_ms' must be a number of milliseconds, not 'soon'",
    ),
    "replay-missing": (lambda t, p: ["replay", str(t / "none.jsonl")], "none.jsonl: cannot be read"),
    "replay-not-utf8": (
        lambda t, p: ["replay", str(_write(t / "c.jsonl", b"\xff\xfe"))],
        "c.jsonl: not UTF-8",
    ),
    "replay-port-busy": (
        lambda t, p: ["replay", str(_cassette(t / "c.jsonl")), "--port", str(p)],
        "--port {p}: cannot listen",
    ),
    "replay-timing": (
        lambda t, p: ["replay", str(_cassette(t / "c.jsonl")), "--timing", "fast"],
        "--timing 'fast'",
    ),
    "replay-rechunk": (
        lambda t, p: ["replay", str(_cassette(t / "c.jsonl")), "--rechunk", "bites"],
        "--rechunk 'bites': unknown chunking",
    ),
    "record-listen-port": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--listen",
            "127.0.0.1:abc",
        ],
        "--listen '127.0.0.1:abc': expected HOST:PORT with a numeric port",
    ),
    "record-listen-host": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--listen",
            "0.0.0.0:8080",
        ],
        "loopback only; use 127.0.0.1:8080",
    ),
    "record-listen-busy": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--listen",
            f"127.0.0.1:{p}",
        ],
        "--listen 127.0.0.1:{p}: cannot listen",
    ),
    "record-out": (
        lambda t, p: ["record", "--upstream", "http://x", "--out", "/proc/nope/c.jsonl"],
        "/proc/nope/c.jsonl: cannot be written",
    ),
    "record-out-exists": (
        lambda t, p: ["record", "--upstream", "http://x", "--out", str(_cassette(t / "o.jsonl"))],
        "o.jsonl: exists; a cassette is never overwritten",
    ),
    "record-port-file": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--port-file",
            "/proc/nope/p",
        ],
        "--port-file '/proc/nope/p': cannot be written",
    ),
    "record-redact-header": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--redact-header",
            "(",
        ],
        "--redact-header '(': not a valid regular expression",
    ),
    "record-redact-value": (
        lambda t, p: [
            "record",
            "--upstream",
            "http://x",
            "--out",
            str(t / "o.jsonl"),
            "--redact-value",
            "[a-",
        ],
        "--redact-value '[a-': not a valid regular expression",
    ),
    "record-upstream": (
        lambda t, p: ["record", "--upstream", "ftp://x", "--out", str(t / "o.jsonl")],
        "--upstream 'ftp://x': expected an http:// or https:// base URL",
    ),
    "record-grace": (
        lambda t, p: ["record", "--upstream", "http://x", "--out", str(t / "o.jsonl"), "--grace", "-2"],
        "--grace -2.0: expected seconds >= 0",
    ),
    "promote-header-only": (
        lambda t, p: ["promote", str(_write(t / "c.jsonl", _header())), "--id", "recorded/x-test"],
        "holds no exchange (header only)",
    ),
    "promote-t_ms": (
        lambda t, p: [
            "promote",
            str(_edit(_cassette(t / "c.jsonl"), '"t_ms": 0.0', '"t_ms": "soon"')),
            "--id",
            "recorded/x-test",
        ],
        "c.jsonl:2: 't_ms' must be a number of milliseconds, not 'soon'",
    ),
    "promote-truncated": (
        lambda t, p: ["promote", str(_cassette(t / "c.jsonl", end="truncated")), "--id", "recorded/x-test"],
        "exchange 0 ended 'truncated', not 'complete'",
    ),
    "promote-id-escape": (
        lambda t, p: ["promote", str(_cassette(t / "c.jsonl")), "--id", "../../etc/evil"],
        "--id '../../etc/evil': expected a relative slug path inside the catalog",
    ),
    "promote-id-absolute": (
        lambda t, p: ["promote", str(_cassette(t / "c.jsonl")), "--id", "/tmp/evil"],
        "--id '/tmp/evil': expected a relative slug path",
    ),
}


def _header() -> bytes:
    return b'{"format": "thinkwire-cassette", "version": 1, "dialect": "openai-chat"}\n'


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_and_exit_2(
    name: str, tmp_path: Path, busy_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    make, expected = CASES[name]
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = make(tmp_path, busy_port)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("thinkwire: error: ")
    assert expected.replace("{p}", str(busy_port)) in lines[0], lines[0]
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == made, "a refused command wrote a file"
    assert before == [] or before == made


def test_promote_id_never_leaves_the_catalog(tmp_path: Path) -> None:
    """Through the function as well: ``..``, symlinked folders and suffix tricks write nothing."""
    from harness import ThinkwireError

    root = tmp_path / "cat" / "scenarios"
    root.mkdir(parents=True)
    (root / "link").symlink_to(tmp_path, target_is_directory=True)
    cassette = _cassette(tmp_path / "cat" / "c.jsonl")
    for bad in ("../evil", "a/../../evil", "link/evil", "a//b", "evil.toml", "A/B", "a\\b", ""):
        with pytest.raises(ThinkwireError, match="--id"):
            promote(cassette, bad, root=root)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cat"]
    assert not (tmp_path / "evil.toml").exists()
    target = promote(cassette, "recorded/my-gw.split_utf8", root=root)
    assert target == (root / "recorded" / "my-gw.split_utf8.toml").resolve()
    assert 'reasoning = "think"' in target.read_text()
