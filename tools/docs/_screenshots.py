"""``nox -s screenshots``: the README's pictures taken anew, the HTML report of a run with failures and one
failing case's swimlane with its evidence marked. Nothing is drawn by hand."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

__all__ = ["main", "take"]

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    "incrementality/gated-reasoning[openai-chat:*/frames]",
    "incrementality/gated-reasoning[anthropic-messages:*/frames]",
    "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/*]",
]
FAULT = "buffer-reasoning"


def take(out_dir: Path) -> dict[str, Path]:
    """Run, report, and write ``report.png`` and ``swimlane.png`` into ``out_dir``.

    It is a real run, the reference gateway with one fault switch so there are failures grouped by cause
    and passing cases beside them, with its real reports, pictured by headless Chromium. The files are
    docs/img/report.png and docs/img/swimlane.png.
    """
    from harness.report import write_reports
    from harness.report._svg import write_swimlanes
    from harness.runner import run
    from tools.docs._browser import chromium_binary, run_chromium

    binary = chromium_binary()
    if binary is None:
        raise SystemExit("screenshots: no chromium on PATH (apt-get install chromium)")
    result = run(CASES, sut="reference", faults=[FAULT], expectations=None, keep_timelines="failures")
    out_dir.mkdir(parents=True, exist_ok=True)
    shots = {"report": out_dir / "report.png", "swimlane": out_dir / "swimlane.png"}
    with tempfile.TemporaryDirectory(prefix="thinkwire-shots-") as tmp_name:
        tmp = Path(tmp_name)
        page = write_reports(result, tmp / "report")["html"]
        done = run_chromium(
            binary, page.as_uri(), tmp, f"--screenshot={shots['report']}", window=(1400, 1100)
        )
        if done.returncode != 0:
            raise SystemExit(f"screenshots: chromium failed on {page}: {done.stderr[-500:]}")
        first = next(iter(write_swimlanes(result, tmp / "svg").values()))
        svg = first.read_text(encoding="utf-8")
        size = re.search(r'width="(\d+)" height="(\d+)"', svg)
        width, height = (int(size.group(1)), int(size.group(2))) if size else (960, 260)
        framed = tmp / "swimlane.html"
        framed.write_text(
            "<!DOCTYPE html><html><body style='margin:0;background:#fff'>"
            + svg.split("\n", 1)[1]
            + "</body></html>",
            encoding="utf-8",
        )
        done = run_chromium(
            binary, framed.as_uri(), tmp, f"--screenshot={shots['swimlane']}", window=(width, height)
        )
        if done.returncode != 0:
            raise SystemExit(f"screenshots: chromium failed on {first}: {done.stderr[-500:]}")
    return shots


def main(argv: list[str]) -> int:
    """``[OUT_DIR]`` (default docs/img)."""
    out = Path(argv[0]) if argv else ROOT / "docs" / "img"
    for name, path in take(out).items():
        sys.stderr.write(f"{name}: {path} ({path.stat().st_size} bytes)\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
