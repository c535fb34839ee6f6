"""A Markdown summary for a pull-request comment: totals, a category x verdict matrix, the unexpected failures
grouped by cause, then case by case, folded. It is kept short enough to read in a PR by capping the tables;
the HTML report has the rest."""

from __future__ import annotations

from collections import defaultdict

from harness.report._causes import Cause, group_causes
from harness.report._common import first_line, outcome, unclaimed
from harness.runner import RunResult
from harness.verdict import Status

__all__ = ["COLUMNS", "render_markdown"]

COLUMNS = ("PASS", "NON_STRICT", "INFO", "UNSUPPORTED", "FAIL", "UNCLEAN", "ERROR", "TIMEOUT", "XFAIL")


def _cell(text: str, limit: int = 160) -> str:
    """One table cell: a single line, pipes escaped, cut at ``limit``."""
    s = first_line(text.replace("\r", " ").replace("\n", " "), limit)
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("`", "'")


def render_markdown(run: RunResult, limit: int = 50) -> str:
    """The summary as GitHub-flavoured Markdown; at most ``limit`` failure rows, then "and N more"."""
    bad = run.unexpected
    verdict = "✅ passed" if run.exit_code == 0 else "❌ failed"
    out = [
        f"## thinkwire: {verdict}",
        "",
        f"**{len(run.results)}** cases against `{_cell(run.sut)}` in {run.duration_s:.1f}s"
        + (" (strict)" if run.strict else "")
        + f" — **{len(bad)}** unexpected",
        "",
    ]
    if run.sut_error:
        out += [f"> **SUT error:** {_cell(run.sut_error, 500)}", ""]
    if run.interrupted:
        out += [f"> **Interrupted** by {run.interrupted}: only the cases listed here were run.", ""]
    matrix: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in run.results:
        matrix[r.category or "(none)"][outcome(r)] += 1
    cols = [c for c in COLUMNS if any(row.get(c) for row in matrix.values())] or ["PASS"]
    out.append("| category | " + " | ".join(cols) + " |")
    out.append("|---|" + "---:|" * len(cols))
    totals: dict[str, int] = defaultdict(int)
    for cat in sorted(matrix):
        row = matrix[cat]
        out.append(f"| {_cell(cat)} | " + " | ".join(str(row.get(c, 0)) for c in cols) + " |")
        for c in cols:
            totals[c] += row.get(c, 0)
    out.append("| **total** | " + " | ".join(f"**{totals[c]}**" for c in cols) + " |")
    out.append("")
    if run.left_out:
        out += [f"> **Left out** ({sum(run.left_out.values())} cases, not run):", ">"]
        out += [f"> - {count} {_cell(why)}" for why, count in sorted(run.left_out.items())]
        out.append("")
    out += [f"> **Warning:** {_cell(w, 500)}\n" for w in run.warnings]
    for provider, ids in unclaimed(run.results).items():
        out += [f"> **Not claimed** (profile `providers`): {provider}'s passback rules, {len(ids)} case(s) "
                "UNSUPPORTED.", ""]
    rows: list[tuple[str, str, str]] = []
    for r in bad:
        if r.status != Status.OK:
            rows.append((r.case_id, r.status.value, first_line(r.error) or r.requirement))
            continue
        failing = r.failing()
        if not failing:
            rows.append((r.case_id, "-", r.requirement))
        rows += [(r.case_id, f.check, f.message or f.verdict.value) for f in failing]
    if rows:
        out += causes_table(group_causes(bad), limit)
        out += [
            "<details><summary>Unexpected failures, case by case</summary>",
            "",
            "| case | check | message |",
            "|---|---|---|",
        ]
        out += [f"| `{_cell(c)}` | {_cell(k)} | {_cell(m)} |" for c, k, m in rows[:limit]]
        if len(rows) > limit:
            out += ["", f"… and {len(rows) - limit} more"]
        out += ["", "</details>", ""]
    return "\n".join(out)


def causes_table(causes: list[Cause], limit: int = 50, fold: int = 20) -> list[str]:
    """``### Unexpected failures by cause``: one row per cause with its count, its cases folded."""
    out = [
        "### Unexpected failures by cause",
        "",
        "| cases | check | cause | affected cases |",
        "|---:|---|---|---|",
    ]
    for c in causes[:limit]:
        ids = [f"`{_cell(r.case_id)}`" for r in c.cases[:fold]]
        more = f"<br>… and {c.count - fold} more" if c.count > fold else ""
        if c.count == 1:
            affected = ids[0]
        else:
            affected = f"<details><summary>{c.count} cases</summary>{'<br>'.join(ids)}{more}</details>"
        out.append(f"| {c.count} | {_cell(c.check)} | {_cell(c.headline)} | {affected} |")
    if len(causes) > limit:
        out += ["", f"… and {len(causes) - limit} more causes"]
    return [*out, ""]
