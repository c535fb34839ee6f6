"""Reports from one results model: console, JUnit XML, JSON with a schema, Markdown and HTML. Every report
renders a ``RunResult``, or one loaded back from results.json, and nothing else, so two reports of one run
never disagree."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from harness._lazy import lazy_names
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
    returned only when there is one).

    These are the three files ``thinkwire run --report DIR`` promises.
    """
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

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.report._console import Progress, print_failures, print_summary
    from harness.report._diff import diff_runs, load_run
    from harness.report._diff_render import diff_junit, diff_markdown, diff_text
    from harness.report._merge import JUNIT, merge_shards
    from harness.report._show import case_choices, render_show

_SHARED = {
    "JUNIT": "_merge",
    "merge_shards": "_merge",
    "Progress": "_console",
    "diff_junit": "_diff_render",
    "diff_markdown": "_diff_render",
    "diff_runs": "_diff",
    "diff_text": "_diff_render",
    "load_run": "_diff",
    "print_failures": "_console",
    "print_summary": "_console",
    "render_show": "_show",
    "case_choices": "_show",
}
__all__ += [
    "JUNIT",
    "Progress",
    "case_choices",
    "diff_junit",
    "diff_markdown",
    "diff_runs",
    "diff_text",
    "load_run",
    "merge_shards",
    "print_failures",
    "print_summary",
    "render_show",
]
__getattr__ = lazy_names(__name__, _SHARED)
