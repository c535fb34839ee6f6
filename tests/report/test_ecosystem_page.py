"""The ecosystem page: docs/ecosystem-results.md rendered as one HTML page (packages x categories grid,
findings with evidence and reproduce lines), committed beside it, and opened in headless Chromium: it
renders, the grid fits a 1280-pixel viewport, and every link resolves (an anchor of the page or a file
of the repository)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from tools.docs._browser import run_chromium
from tools.docs._ecosystem_page import parse, render_page

DOCS = Path(__file__).resolve().parents[2] / "docs"
MD = DOCS / "ecosystem-results.md"
PAGE = DOCS / "ecosystem-results.html"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))


def test_the_committed_page_is_the_markdown_rendered() -> None:
    assert PAGE.read_text(encoding="utf-8") == render_page(MD.read_text(encoding="utf-8")), (
        "docs/ecosystem-results.html is stale: python -m tools.docs._ecosystem_page"
    )


def test_parse_reads_every_package_its_grid_and_findings() -> None:
    _, packages = parse(MD.read_text(encoding="utf-8"))
    headings = re.findall(r"^## (\S+) ", MD.read_text(encoding="utf-8"), re.MULTILINE)
    assert [p.name for p in packages] == headings
    for p in packages:
        assert p.rows, p.name
        assert sum(sum(r.values()) for r in p.rows.values()) == int(p.summary.split(" cases")[0]), p.name
        for f in p.findings:
            assert any(d.startswith("reproduce: `thinkwire run --sut profiles/") for d in f.details), f.title


def test_links_resolve() -> None:
    links = _Links()
    links.feed(PAGE.read_text(encoding="utf-8"))
    assert links.hrefs
    for href in links.hrefs:
        if href.startswith("#"):
            assert href[1:] in links.ids, href
        else:
            assert "://" not in href, href
            assert (DOCS / href).resolve().exists(), href


def test_renders_in_chromium_and_the_grid_fits_the_viewport(chromium: str, tmp_path: Path) -> None:
    done = run_chromium(chromium, PAGE.as_uri(), tmp_path, "--dump-dom", window=(1280, 900))
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    right = re.search(r'data-grid-right="(\d+)"', dom)
    viewport = re.search(r'data-viewport="(\d+)"', dom)
    assert right is not None, "the page's script did not run"
    assert viewport is not None
    assert int(viewport.group(1)) == 1280
    assert 0 < int(right.group(1)) <= 1280
    _, packages = parse(MD.read_text(encoding="utf-8"))
    assert dom.count('<th class="pkg"><a href="#pkg-') == len(packages)
    assert dom.count('<section class="package"') == len(packages)
    shot = tmp_path / "page.png"
    done = run_chromium(chromium, PAGE.as_uri(), tmp_path, f"--screenshot={shot}", window=(1280, 900))
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.stat().st_size > 20_000
