"""The fidelity corpus is read from outside the project: nothing of it is tracked, no test quotes it, it is
found where the rules say (THINKWIRE_CORPUS, else ../shared/corpus beside a checkout), verified against the
manifest's sha256, and without it the corpus cases are left out with one line saying where it was looked."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import CassetteError
from harness.recording import read_cassette
from harness.recording._corpus import ENV, Location, absent_reason, locate, open_corpus, read_manifest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "recordings" / "corpus" / "corpus.toml"


def _tracked() -> list[str]:
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout (git ls-files needs one)")
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_no_corpus_file_is_tracked() -> None:
    """By name and by content: no tracked file is a corpus file or an original cassette (their sha256
    are in the manifest, so this holds without the corpus at hand)."""
    tracked = _tracked()
    assert not [p for p in tracked if p.startswith("recordings/corpus/") and p.endswith(".jsonl")]
    pinned = {e.sha256: e.name for e in read_manifest().entries}
    pinned |= {e.source_sha256: e.source_path for e in read_manifest().entries}
    same = [
        (p, pinned[h])
        for p in tracked
        if (ROOT / p).is_file() and (h := hashlib.sha256((ROOT / p).read_bytes()).hexdigest()) in pinned
    ]
    assert not same, f"tracked files whose bytes are corpus data: {same}"


_KEYED = re.compile(
    rb'"(?:signature|thoughtSignature|thought_signature|id|encrypted_content|data|call_id|item_id|'
    rb'tool_use_id|tool_call_id)"\s*:\s*"((?:[^"\\]|\\.){16,})"'
)
_TEXT = re.compile(rb'"(?:thinking|text|reasoning_content|reasoning|content)"\s*:\s*"((?:[^"\\]|\\.){40,})"')
_IDS = re.compile(
    rb"\b(?:msg|toolu|rs|resp|call|chatcmpl|gen|req|srvtoolu|fc|tooluse)_[A-Za-z0-9-]{10,}"
    rb"|[A-Za-z0-9+/]{30,}={0,2}"
)
# Bedrock's padding field, not a recording
_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def distinctive(corpus_root: Path) -> dict[str, str]:
    """Recorded ids, signatures and long texts of each corpus file (first 32 characters -> file)."""
    out: dict[str, str] = {}
    for e in read_manifest().entries:
        for ex in read_cassette(corpus_root / f"{e.name}.jsonl").exchanges:
            blobs = [ex.body, ex.request_body or b"", *(v.encode() for _, v in ex.response_headers)]
            for blob in blobs:
                found = [m.group(1) for p in (_KEYED, _TEXT) for m in p.finditer(blob)]
                found += [m.group(0) for m in _IDS.finditer(blob)]
                for raw in found:
                    s = raw[:32].decode("utf-8", "replace")
                    if len(s) >= 16 and s not in _ALPHABET and not s.isdigit():
                        out.setdefault(s, e.name)
    return out


def test_no_tracked_file_quotes_the_corpus() -> None:
    where = locate()
    corpus = open_corpus(where)
    if corpus is None:
        pytest.skip(absent_reason(where))
    strings = distinctive(corpus.root)
    assert len(strings) > 150  # ids, signatures, reasoning texts of 31 files
    hits = []
    for p in _tracked():
        if p.endswith((".png", ".jpg", ".ico", ".gz")) or not (ROOT / p).is_file():
            continue
        text = (ROOT / p).read_text(encoding="utf-8", errors="replace")
        hits += [(p, name, s) for s, name in strings.items() if s in text]
    assert not hits, f"tracked files holding recorded strings of the corpus: {hits[:10]}"


def test_the_check_can_fail(tmp_path: Path) -> None:
    """A recorded signature pasted into a file is found (the extraction reads what the corpus holds)."""
    where = locate()
    corpus = open_corpus(where)
    if corpus is None:
        pytest.skip(absent_reason(where))
    strings = distinctive(corpus.root)
    pasted = next(s for s, name in strings.items() if name == "anthropic-thinking-stream" and "=" not in s)
    assert any(s in f"steps = [{{ signature = {pasted!r} }}]" for s in strings)


def _copy_corpus(dst: Path) -> Path:
    where = locate()
    corpus = open_corpus(where)
    if corpus is None:
        pytest.skip(absent_reason(where))
    dst.mkdir()
    for e in read_manifest().entries:
        shutil.copyfile(corpus.path(e.name), dst / f"{e.name}.jsonl")
    return dst


def test_the_location_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    assert locate() == Location(tmp_path, f"${ENV}")
    assert open_corpus() is None  # an empty folder is no corpus
    reason = absent_reason()
    assert "\n" not in reason
    assert str(tmp_path) in reason
    assert ENV in reason
    monkeypatch.delenv(ENV)
    assert locate() == Location(ROOT.parent / "shared" / "corpus", "../shared/corpus beside the checkout")


def test_a_changed_byte_is_one_line_naming_the_file(tmp_path: Path) -> None:
    root = _copy_corpus(tmp_path / "c")
    victim = root / "gemini-thoughts.jsonl"
    victim.write_bytes(victim.read_bytes().replace(b"thought", b"though", 1))
    with pytest.raises(CassetteError, match=r"gemini-thoughts\.jsonl: sha256 [0-9a-f]{64} differs") as got:
        open_corpus(Location(root, "test"))
    assert "\n" not in str(got.value)
    victim.unlink()
    with pytest.raises(CassetteError, match=r"gemini-thoughts\.jsonl: missing from the corpus"):
        open_corpus(Location(root, "test"))


def test_manifest_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "corpus.toml"
    sha = "0" * 64
    entry = f'repo = "a/b"\npath = "x"\ncommit = "{"c" * 40}"\nvariant = "v"\nsource_sha256 = "{sha}"\n'
    bad.write_text(f'[licenses]\n"a/b" = "GPL-3.0"\n[files.one]\n{entry}sha256 = "{sha}"\n')
    with pytest.raises(CassetteError, match=r"corpus.toml: \[files.one\]: a/b has license 'GPL-3\.0'"):
        read_manifest(bad)
    bad.write_text(f'[licenses]\n"a/b" = "MIT"\n[files.one]\n{entry}sha256 = "abc"\n')
    with pytest.raises(CassetteError, match=r"\[files.one\]: 'sha256' must be 64 lower-case hex digits"):
        read_manifest(bad)
    short = entry.replace("c" * 40, "c" * 12)
    bad.write_text(f'[licenses]\n"a/b" = "MIT"\n[files.one]\n{short}sha256 = "{sha}"\n')
    with pytest.raises(CassetteError, match=r"'commit' must be the full 40-digit commit"):
        read_manifest(bad)


def test_every_entry_pins_both_checksums_and_the_wanted_list_is_read() -> None:
    m = read_manifest(MANIFEST)
    assert len(m.entries) == 31
    assert all(len(e.sha256) == 64 and len(e.source_sha256) == 64 for e in m.entries)
    assert sum(e.case for e in m.entries) == 10
    assert m.wanted
    from tools.fidelity import UNCOVERED

    for w in m.wanted:  # each wanted recording is for a variant no corpus file plays
        assert (w.dialect, w.variant) in UNCOVERED, w
        assert w.why, w


def _catalog_ids(corpus: str) -> tuple[list[str], str]:
    code = (
        "from harness.catalog import load_catalog\nfrom harness.catalog._catalog import left_out\n"
        "ids = [s.id for s in load_catalog()]\ngone = left_out()\n"
        "print(sum(i.startswith('recorded/corpus-') for i in ids), len(ids))\n"
        "print(gone.reason if gone else '')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env(corpus),
        timeout=120,
    )
    counts, reason = done.stdout.splitlines()
    return counts.split(), reason


def _env(corpus: str) -> dict[str, str]:
    import os

    return {**os.environ, ENV: corpus}


def test_without_a_corpus_the_corpus_cases_are_left_out_and_the_run_passes(tmp_path: Path) -> None:
    (n, _), reason = _catalog_ids(str(tmp_path))
    assert n == "0"
    assert reason.startswith(f"no fidelity corpus: looked for it at {tmp_path} ($THINKWIRE_CORPUS)")
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", "--sut", "reference", "--cases", "recorded/*",
         "-q"], capture_output=True, text=True, env=_env(str(tmp_path)), timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    line = f"  -   10 recorded/corpus-*: no fidelity corpus: looked for it at {tmp_path}"
    assert line in done.stdout  # (the selection's corpus cases, in the run's left-out list)


def test_with_the_corpus_the_corpus_cases_are_in_the_catalog() -> None:
    where = locate()
    if open_corpus(where) is None:
        pytest.skip(absent_reason(where))
    assert where.dir is not None
    (n, _), reason = _catalog_ids(str(where.dir))
    assert (n, reason) == ("10", "")


def test_ci_refuses_to_run_without_the_corpus(tmp_path: Path) -> None:
    """.ci/run with CI=true and no corpus stops before installing anything: one line, exit 2."""
    repo = tmp_path / "clone"
    (repo / ".ci").mkdir(parents=True)
    shutil.copyfile(ROOT / ".ci" / "run", repo / ".ci" / "run")
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run(
        ["bash", str(repo / ".ci" / "run")], capture_output=True, text=True, timeout=60,
        env={**_env(str(empty)), "CI": "true"}, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        f".ci/run: no fidelity corpus at {empty} (CI=true needs it: ../shared/corpus or THINKWIRE_CORPUS)"
    )
