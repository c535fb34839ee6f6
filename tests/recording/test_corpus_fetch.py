"""``thinkwire corpus fetch`` against a local mirror of the originals (served on 127.0.0.1 in GitHub's raw
layout, BASE/<owner>/<repo>/<commit>/<path>): every converted file comes out byte for byte as the shared
corpus has it; a 404 or a changed original is one line and exit 2, and nothing is written under its name."""

from __future__ import annotations

import hashlib
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from harness.cli import main
from harness.recording._corpus import Corpus, absent_reason, locate, open_corpus, read_manifest


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    where = locate()
    found = open_corpus(where)
    if found is None:
        pytest.skip(absent_reason(where))
    return found


class _Mirror(BaseHTTPRequestHandler):
    """Serves ``src/<owner>/<repo>/<commit[:12]>/<path>`` at ``/<owner>/<repo>/<commit>/<path>``;
    ``tamper`` names a path whose bytes are served changed."""

    root: Path
    tamper: str = ""

    def do_GET(self) -> None:
        parts = urllib.parse.unquote(self.path).lstrip("/").split("/", 3)
        if len(parts) < 4 or len(parts[2]) != 40:
            self.send_error(404)
            return
        owner, repo, commit, rest = parts
        path = self.root / "src" / owner / repo / commit[:12] / rest
        if not path.is_file():
            self.send_error(404)
            return
        data = path.read_bytes()
        if self.tamper and rest == self.tamper:
            data += b"\n# changed\n"
        self.send_response(200)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@pytest.fixture
def mirror(corpus: Corpus) -> Iterator[tuple[str, type[_Mirror]]]:
    handler = type("Mirror", (_Mirror,), {"root": corpus.root, "tamper": ""})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_fetch_rebuilds_the_corpus_byte_for_byte(
    mirror: tuple[str, type[_Mirror]], corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = mirror
    out = tmp_path / "corpus"
    assert main(["corpus", "fetch", "--from", base, "--dir", str(out)]) == 0
    entries = read_manifest().entries
    assert f"wrote {len(entries)} file(s) to {out}" in capsys.readouterr().out
    for e in entries:
        assert (out / f"{e.name}.jsonl").read_bytes() == corpus.path(e.name).read_bytes(), e.name
        assert (out / e.source_dir).read_bytes() == (corpus.root / e.source_dir).read_bytes(), e.name
    assert open_corpus(type(locate())(out, "test")) is not None  # and it verifies as a corpus


def test_a_404_is_one_line_and_exit_2(
    mirror: tuple[str, type[_Mirror]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = mirror
    assert main(["corpus", "fetch", "--from", base + "/nowhere", "--dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("thinkwire: error: ")
    assert "answered 404" in err[0]
    assert not (tmp_path / "c").exists()


def test_a_changed_original_is_one_line_and_exit_2(
    mirror: tuple[str, type[_Mirror]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, handler = mirror
    victim = read_manifest().entries[0]
    handler.tamper = victim.source_path
    assert main(["corpus", "fetch", "--from", base, "--dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"{victim.name}.jsonl: " in err[0]
    assert f"the manifest pins {victim.source_sha256}" in err[0]
    assert not (tmp_path / "c" / f"{victim.name}.jsonl").exists()


def test_the_manifest_pins_what_the_mirror_serves(corpus: Corpus) -> None:
    for e in read_manifest().entries:
        original = (corpus.root / e.source_dir).read_bytes()
        assert hashlib.sha256(original).hexdigest() == e.source_sha256, e.name
