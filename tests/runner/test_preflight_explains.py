"""A failed preflight (or a SUT that cannot be loaded) explains itself: one line says what failed and
where the whole traceback and the canary's timeline are (printed with -v, or DIR/preflight.txt with
--report DIR)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness.cli import main


def _sut(tmp_path: Path, body: str) -> Path:
    module = f"bad_sut_{tmp_path.name.replace('-', '_')}"  # a fresh module per test (no import cache)
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(body), encoding="utf-8")
    profile = tmp_path / "p.toml"
    text = f'kind = "python"\ncallable = "{module}:stream"\nsys_path = ["."]\n'
    profile.write_text(text, encoding="utf-8")
    return profile


RAISES = """
    import asyncio

    def helper():
        asyncio.get_running_loop()   # what a sync bridge around an async framework often does

    def stream(request):
        helper()
        yield from ()
"""


def test_one_line_names_where_the_detail_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--sut", str(_sut(tmp_path, RAISES)), "-q"])
    err = capsys.readouterr().err
    assert code == 2
    (line,) = [ln for ln in err.splitlines() if ln.strip()]
    assert "RuntimeError" in line
    assert "no running event loop" in line
    assert "-v prints the traceback and timeline" in line


def test_verbose_prints_the_traceback_and_timeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--sut", str(_sut(tmp_path, RAISES)), "-q", "-v"]) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "in helper" in err
    assert '"act": "request"' in err  # the timeline
    assert err.strip().splitlines()[-1].endswith("(traceback and timeline above)")


def test_report_dir_gets_the_detail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["run", "--sut", str(_sut(tmp_path, RAISES)), "-q", "--report", str(out)]) == 2
    err = capsys.readouterr().err
    detail = (out / "preflight.txt").read_text(encoding="utf-8")
    assert str(out / "preflight.txt") in err
    assert "in helper" in detail
    assert "timeline" in detail


def test_an_import_error_shows_its_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = _sut(tmp_path, "import json\n\ndef fail():\n    json.loads('{')\n\nfail()\n")
    assert main(["run", "--sut", str(profile), "-q", "-v"]) == 2
    err = capsys.readouterr().err
    assert "JSONDecodeError" in err
    assert "in fail" in err  # the whole traceback, not only its last line
