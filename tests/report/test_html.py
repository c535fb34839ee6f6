"""The HTML report as text: self-contained, the matrix, lazy details, passing cases as compact data,
escaping, 500 cases; the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness._cli_report import add_parser, run
from harness.report import render_html, write_json
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Verdict


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    p = _Tags()
    p.feed(html)
    return p.tags


def _table(html: str) -> str:
    """The page up to its case details (the page's script builds rows of its own)."""
    return html.split('<div id="templates">', 1)[0]


def test_self_contained(run_result: RunResult) -> None:
    html = render_html(run_result)
    tags = _tags(html)
    assert not [t for t, a in tags if t in ("link", "img", "iframe") or (t == "script" and a.get("src"))]
    assert "@import" not in html
    assert "url(" not in html
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * 5  # one case summarised


def test_matrix_rows_columns_and_lazy_details(run_result: RunResult) -> None:
    html = render_html(run_result)
    tags = _tags(html)
    rows = [a for t, a in tags if t == "tr" and a.get("class") == "case"]
    # grouped by category (sorted), each case once; the passing one (UNSUPPORTED, timeline summarised) is
    # compact data folded under its category, the one that kept its whole timeline has its row
    assert [a["data-case"] for a in rows] == [
        "cleanup/cancel@anthropic:thinking",
        "errors/mid-stream-error@anthropic:thinking",
        "incremental/reasoning-flush@openai-chat:reasoning_content/sse-per-event",
        "incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk",
        "passback/signature@anthropic:thinking",
    ]
    assert [a["data-outcome"] for a in rows] == ["UNCLEAN", "TIMEOUT", "PASS", "FAIL", "XFAIL"]
    assert [a["data-unexpected"] for a in rows] == ["1", "1", "0", "1", "0"]
    cats = [a["data-cat"] for t, a in tags if t == "tr" and a.get("class") == "cat"]
    assert cats == ["cleanup", "errors", "incremental", "passback", "wire"]
    assert [(a["id"], a["data-cat"]) for t, a in tags if t == "tr" and a.get("class") == "more"] == [
        ("more-4", "wire")
    ]
    data = json.loads(html.split('<script type="application/json" id="passing">', 1)[1].split("</script>")[0])
    assert data["cases"] == [
        {"n": 3, "i": "wire/variants@gemini:thought", "s": "wire/variants", "g": 4, "o": "UNSUPPORTED",
         "v": ["UNSUPPORTED", "N/A"], "ms": 0.0, "a": "", "c": "    U  ",
         "f": [["support", "UNSUPPORTED", "stream", "the SUT does not claim gemini:thought", "", ""]]}
    ]  # fmt: skip
    assert data["rep"] == "thinkwire run --sut reference --cases '{case}'"
    assert data["req"] == {"wire/variants": "Every claimed variant MUST round-trip."}
    heads = [a["title"] for t, a in tags if t == "th" and a.get("class") == "check"]
    assert heads == ["incremental", "duplication", "timing", "cleanup", "support", "passback", "cancellation"]
    assert len([a for t, a in tags if t == "script" and a.get("type") == "text/x-thinkwire-case"]) == 5
    assert all("hidden" in a for t, a in tags if t == "tr" and a.get("class") == "detail")
    # details live in templates (inert until opened): the SVG and findings are there
    tpl = html.split('<script type="text/x-thinkwire-case" id="tpl-1">', 1)[1].split("</script>", 1)[0]
    assert "<svg" in tpl
    assert "<b>Expected:</b> <code>a ReasoningDelta before gate &#39;client saw reasoning&#39;" not in tpl
    assert (
        "<b>Expected:</b> <code>a ReasoningDelta before gate 'client saw reasoning' times out (50 ms)" in tpl
    )
    assert (
        "thinkwire run --sut reference --fault buffer --cases &#39;incremental/reasoning-flush@*&#39;"
        not in tpl
    )
    assert "reproduce: <code>thinkwire run --sut reference --fault buffer" in tpl
    assert 'class="evidence"' in tpl
    assert 'data: {"choices":[{"delta":{"reasoning_content":" &lt;about&gt; &amp; it"}}]}' in tpl
    assert "FAILED: 3 unexpected result(s)" in html
    assert '<option value="UNCLEAN">UNCLEAN</option>' in html


def test_hostile_text_is_escaped() -> None:
    evil = "</template></script><script>alert(1)</script>\x00"
    r = CaseResult(
        evil,
        "s",
        evil,
        evil,
        "s",
        stream=Verdict.FAIL,
        unexpected=True,
        error=evil,
        reproduce=evil,
        findings=[Finding(evil, Verdict.FAIL, message=evil, expected=evil, actual=evil)],
        timeline=[{"t_ms": 0, "side": "client", "act": "chunk", "text": evil}],
    )
    html = render_html(RunResult(evil, [r], sut_error=evil))
    assert html.count("<script>") == 1
    assert html.count("</script>") == 2  # the page's script and the one case's detail (text)
    assert html.count('<script type="text/x-thinkwire-case"') == 1
    assert "<!--" not in html  # (inside a script's text it would change where the script ends)
    assert "\x00" not in html
    passed = CaseResult(evil, evil, evil, evil, evil, reproduce=evil, error=evil,
                        findings=[Finding(evil, Verdict.INFO, message=evil, expected=evil)])  # fmt: skip
    html = render_html(RunResult(evil, [passed]))
    assert html.count("</script>") == 2  # the page's script and the passing cases' data
    assert html.count('<script type="application/json" id="passing">') == 1
    assert "<!--" not in html
    data = html.split('id="passing">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["cases"][0]["f"][0][3] == evil  # the text intact once parsed


def test_five_hundred_cases_stay_small_and_collapsed(run_result: RunResult) -> None:
    base = run_result.results[1]
    many = [
        CaseResult(
            f"{base.case_id}#{n}",
            base.scenario_id,
            base.requirement,
            f"cat{n % 7}",
            "s",
            stream=base.stream,
            findings=base.findings,
            timeline=base.timeline,
            unexpected=n % 3 == 0,
        )
        for n in range(500)
    ]
    html = render_html(RunResult("s", many))
    assert _table(html).count('<tr class="case"') == 500
    assert html.count('<script type="text/x-thinkwire-case"') == 500
    assert len(html) < 8_000_000


def test_passing_cases_are_data_not_rows(run_result: RunResult) -> None:
    """500 passing cases: no row and no detail in the page, one compact entry each (a few hundred
    bytes), folded under their categories; their rows come from the page's script."""
    base = run_result.results[0]
    many = [
        dataclasses.replace(base, case_id=f"{base.case_id}#{n}", category=f"cat{n % 7}", timeline=[])
        for n in range(500)
    ]
    html = render_html(RunResult("s", many))
    assert _table(html).count('<tr class="case"') == 0
    assert html.count('<script type="text/x-thinkwire-case"') == 0
    assert _table(html).count('<tr class="more"') == 7
    data = json.loads(html.split('id="passing">', 1)[1].split("</script>", 1)[0])
    assert len(data["cases"]) == 500
    assert data["cases"][0]["c"] == "PPPI"  # incremental, duplication, cleanup, then timing (INFO)
    assert len(html) < 500 * 500


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="thinkwire")
    add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_cli_rerenders_saved_results(
    run_result: RunResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write_json(run_result, tmp_path / "results.json")
    out = tmp_path / "out"
    args = _args(
        [
            "report",
            str(src),
            "--html",
            str(out / "r.html"),
            "--markdown",
            str(out / "s.md"),
            "--junit",
            str(out / "j.xml"),
        ]
    )
    assert run(args) == 1  # the run had unexpected results
    assert (out / "r.html").read_text(encoding="utf-8") == render_html(run_result)
    assert (out / "s.md").read_text(encoding="utf-8").startswith("## thinkwire: ❌ failed")
    assert "<testsuites" in (out / "j.xml").read_text(encoding="utf-8")
    assert capsys.readouterr().out.splitlines() == [
        f"HTML report written to {out / 'r.html'}",
        f"JUnit XML written to {out / 'j.xml'}",
        f"Markdown summary written to {out / 's.md'}",
    ]
    assert run(_args(["report", str(src)])) == 1
    assert capsys.readouterr().out.startswith("## thinkwire: ❌ failed\n")


def test_cli_reports_unreadable_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "results.json"
    bad.write_text('{"format": "other"}', encoding="utf-8")
    assert run(_args(["report", str(bad), "--html", str(tmp_path / "x.html")])) == 2
    err = capsys.readouterr().err
    assert err == f"thinkwire report: {bad}: field 'format': expected 'thinkwire-results', got 'other'\n"
    assert not (tmp_path / "x.html").exists()


# -- issue 39: every badge readable (WCAG AA), the case table fits 1400 px ---------------------------
def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(h[i : i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _badge_rules() -> dict[str, tuple[str | None, list[str]]]:
    """Each badge rule of the page's CSS: selector -> (its text colour, its background colours)."""
    from harness.report._html import _CSS

    badge = re.compile(r"\.v-|\.banner\.|\.tag|\.act")
    out: dict[str, tuple[str | None, list[str]]] = {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", _CSS):
        selector = selector.strip()
        if not badge.search(selector) or "background" not in body:
            continue
        colour = re.search(r"(?:^|;)\s*color:\s*(#[0-9a-fA-F]{3,6})", body)
        background = re.search(r"background(?:-color)?:\s*([^;]+)", body)
        assert background is not None
        backgrounds = re.findall(r"#[0-9a-fA-F]{3,6}\b", background.group(1))
        out[selector] = (colour.group(1) if colour else None, backgrounds)
    return out


def test_every_badge_meets_aa_contrast() -> None:
    """Each badge names its text colour (the header's counts inherited white: NON_STRICT's white on pale
    yellow was 1.19:1) and reaches 4.5:1 against each of its background colours."""
    from harness.report._html import _ORDER

    rules = _badge_rules()
    for word in (*_ORDER, "OK"):
        assert f".v-{word.replace('/', '')}" in rules, f"no badge for {word}"
    assert {".banner.ok", ".banner.bad", ".tag", ".tag.xfail", ".act"} <= set(rules)
    low = {}
    for selector, (colour, backgrounds) in rules.items():
        assert colour is not None, f"{selector}: no text colour of its own (it would inherit one)"
        assert backgrounds, selector
        worst_ratio = min(contrast(colour, bg) for bg in backgrounds)
        if worst_ratio < 4.5:
            low[selector] = round(worst_ratio, 2)
    assert low == {}


def test_many_check_columns_start_collapsed_behind_a_switch(run_result: RunResult) -> None:
    from harness.report._html import SHOWN_CHECKS

    few = render_html(run_result)
    assert '<table id="matrix">' in few  # 7 checks: shown
    assert '<input type="checkbox" id="f-checks" checked> 7 check columns' in few
    many = RunResult(
        "s",
        [
            CaseResult(
                "a/b", "a/b", "r", "c", "s",
                findings=[Finding(f"check-{n}", Verdict.PASS) for n in range(SHOWN_CHECKS + 1)],
            )
        ],
    )
    many.results[0].stream = Verdict.NON_STRICT  # under --strict (a passing case's row is the script's)
    many.results[0].unexpected = True
    many.results[0].findings[0] = Finding("check-0", Verdict.NON_STRICT)
    html = render_html(many)
    assert '<table id="matrix" class="checks-off">' in html
    assert f'<input type="checkbox" id="f-checks"> {SHOWN_CHECKS + 1} check columns' in html
    assert html.count('class="v v-PASS c"') == SHOWN_CHECKS  # each check cell is collapsible
    assert html.count('class="v v-NON_STRICT c"') == 1
