"""docs/ecosystem-results.md as one static HTML page: a packages x categories grid, then each package's
findings with their evidence and reproduce lines. The Markdown page is the source, so this module reads it
back and never re-runs anything."""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Package", "main", "parse", "render_page"]

ROOT = Path(__file__).resolve().parents[2]
_HEAD = re.compile(r"^## (\S+) \(`([^`]*)`\)\s*$")
_FINDING = re.compile(r"^- \*\*(.+)\*\* \((\d+) case\(s\)\)\s*$")
_CODE = re.compile(r"`([^`]*)`")


@dataclass(slots=True)
class Finding:
    title: str
    cases: int
    details: list[str] = field(default_factory=list)  # the sub-bullets, Markdown inline text


@dataclass(slots=True)
class Package:
    name: str
    requirement: str
    summary: str = ""
    columns: list[str] = field(default_factory=list)
    rows: dict[str, dict[str, int]] = field(default_factory=dict)  # category -> verdict -> count
    findings: list[Finding] = field(default_factory=list)


def parse(text: str) -> tuple[list[str], list[Package]]:
    """The intro paragraphs and the packages of docs/ecosystem-results.md.

    ``nox -s ecosystem`` writes that page. It is read section by section: ``## package``, its category
    table, its ``### Findings`` list.
    """
    intro: list[str] = []
    packages: list[Package] = []
    current: Package | None = None
    for line in text.splitlines():
        head = _HEAD.match(line)
        if head:
            current = Package(head.group(1), head.group(2))
            packages.append(current)
        elif current is None:
            if line and not line.startswith("# "):
                intro.append(line)
        elif line.startswith("| category |"):
            current.columns = [c.strip() for c in line.strip("|").split("|")[1:]]
        elif line.startswith("| ") and current.columns and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            current.rows[cells[0]] = {c: int(v) for c, v in zip(current.columns, cells[1:], strict=False)}
        elif (found := _FINDING.match(line)) is not None:
            current.findings.append(Finding(found.group(1), int(found.group(2))))
        elif line.startswith("  - ") and current.findings:
            current.findings[-1].details.append(line[4:])
        elif line and not line.startswith(("|", "#")) and not current.summary:
            current.summary = line
    return intro, packages


def _inline(text: str) -> str:
    """Markdown inline code and bold -> HTML (everything else escaped)."""
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
        else:
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(part)))
    return "".join(out)


def _grid(packages: list[Package]) -> str:
    categories = sorted({c for p in packages for c in p.rows})
    head = "".join(f"<th>{html.escape(c)}</th>" for c in categories)
    body = []
    for p in packages:
        cells = []
        for c in categories:
            row = p.rows.get(c)
            if not row:
                cells.append('<td class="none">–</td>')
                continue
            total = sum(row.values())
            bad = sum(row.get(v, 0) for v in ("FAIL", "UNCLEAN", "ERROR", "TIMEOUT"))
            title = ", ".join(f"{k} {v}" for k, v in row.items() if v)
            cls = "ok" if not bad else ("bad" if bad * 2 >= total else "some")
            cells.append(f'<td class="{cls}" title="{html.escape(title)}">{total - bad}/{total}</td>')
        body.append(
            f'<tr><th class="pkg"><a href="#pkg-{p.name}">{html.escape(p.name)}</a></th>{"".join(cells)}</tr>'
        )
    return (
        '<table id="grid"><thead><tr><th class="pkg">package</th>'
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _package(p: Package) -> str:
    profile = f"../profiles/{p.name}.toml"
    items = []
    for f in p.findings:
        details = "".join(f"<li>{_inline(d)}</li>" for d in f.details)
        items.append(
            f'<li class="finding"><b>{html.escape(f.title)}</b> <span class="n">{f.cases} case(s)</span>'
            f"<ul>{details}</ul></li>"
        )
    findings = f'<ul class="findings">{"".join(items)}</ul>' if items else "<p>No finding.</p>"
    return (
        f'<section class="package" id="pkg-{p.name}"><h2>{html.escape(p.name)} '
        f"<code>{html.escape(p.requirement)}</code></h2>"
        f'<p class="summary">{_inline(p.summary)} Profile: '
        f'<a href="{profile}">{html.escape(profile)}</a>.</p>'
        f"{findings}</section>"
    )


def render_page(markdown: str) -> str:
    """The HTML page for the text of docs/ecosystem-results.md.

    One self-contained file with inline CSS and a few lines of script that stamp the grid's width for the
    browser test. Every link is either an anchor in the page or a file of the repository relative to docs/.
    """
    intro, packages = parse(markdown)
    paragraph = " ".join(intro)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>thinkwire: gateways and framework wrappers</title>
<style>{_CSS}</style></head>
<body>
<header><h1>Gateways and framework wrappers under thinkwire</h1>
<p>{_inline(paragraph)} Source: <a href="ecosystem-results.md">ecosystem-results.md</a>; history across
versions: <a href="ecosystem-history.md">ecosystem-history.md</a>.</p></header>
<main>
<p class="legend">Each cell: cases that passed / cases run in that category (hover for every verdict);
green all passed, amber some failed, red half or more failed.</p>
{_grid(packages)}
{"".join(_package(p) for p in packages)}
</main>
<script>
(function(){{var g=document.getElementById('grid'),d=document.documentElement;
d.setAttribute('data-grid-right',Math.ceil(g.getBoundingClientRect().right));
d.setAttribute('data-viewport',window.innerWidth);}})();
</script>
</body></html>
"""


_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#222}
header{background:#2d3436;color:#fff;padding:10px 20px}header h1{margin:0 0 4px;font-size:20px}
header a{color:#ffeaa7}header code{color:#ffeaa7;background:#3d4548}
main{padding:8px 20px;max-width:1240px}
table#grid{border-collapse:collapse;font-size:12px;margin:8px 0}
#grid th,#grid td{border:1px solid #dfe4ea;padding:3px 5px;text-align:center}
#grid thead th{background:#f1f2f6;font-weight:600;max-width:90px;white-space:normal;word-break:break-word}
#grid th.pkg{text-align:left;white-space:nowrap}
#grid td.ok{background:#55efc4}#grid td.some{background:#ffeaa7}#grid td.bad{background:#ff7675}
#grid td.none{color:#b2bec3}
.legend{color:#555;font-size:12px}
section.package{border-top:2px solid #dfe4ea;margin-top:14px}
section.package h2{font-size:17px;margin:8px 0 2px}
.findings>li{margin:6px 0}.findings .n{color:#555}
code{background:#f1f2f6;padding:0 3px;border-radius:3px;word-break:break-all;font-size:12px}
"""


def main(argv: list[str]) -> int:
    """``[IN.md] [OUT.html]``: docs/ecosystem-results.md -> docs/ecosystem-results.html by default."""
    source = Path(argv[0]) if argv else ROOT / "docs" / "ecosystem-results.md"
    out = Path(argv[1]) if len(argv) > 1 else source.with_suffix(".html")
    out.write_text(render_page(source.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stderr.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
