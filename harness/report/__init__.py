"""Reports from one results model: console, JUnit XML, JSON (with a schema), Markdown, HTML.

Rule: every report renders a ``RunResult`` (or one loaded back from results.json) and nothing else;
``write_reports`` writes the three files ``thinkwire run --report DIR`` promises.
"""

from __future__ import annotations

from pathlib import Path

from harness.report._html import render_html
from harness.report._json import SCHEMA_PATH, ResultsError, from_json, load_results, to_json, write_json
from harness.report._junit import junit_xml, write_junit
from harness.report._markdown import render_markdown
from harness.report._svg import SWIMLANES, timeline_svg, write_swimlanes
from harness.runner import RunResult

__all__ = [
    "SCHEMA_PATH",
    "SWIMLANES",
    "ResultsError",
    "from_json",
    "junit_xml",
    "load_results",
    "render_html",
    "render_markdown",
    "timeline_svg",
    "to_json",
    "write_json",
    "write_junit",
    "write_reports",
    "write_swimlanes",
]


def write_reports(run: RunResult, out_dir: str | Path) -> dict[str, Path]:
    """Write ``results.json``, ``summary.md`` and ``report.html`` into ``out_dir`` (created), and the
    swimlane SVG of each case that did not pass into ``out_dir/swimlanes`` (``"swimlanes"``: that dir,
    returned only when there is one)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    md = out / "summary.md"
    md.write_text(render_markdown(run), encoding="utf-8")
    html = out / "report.html"
    html.write_text(render_html(run), encoding="utf-8")
    written = {"json": write_json(run, out / "results.json"), "markdown": md, "html": html}
    if write_swimlanes(run, out / SWIMLANES):
        written["swimlanes"] = out / SWIMLANES
    return written
