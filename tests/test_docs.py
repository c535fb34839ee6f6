"""Docs examples are real tests: each ``<!-- include: PATH -->`` block in docs/*.md must equal the file."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(
    r"<!-- include: (?P<path>\S+) -->\n```(?P<lang>\w+)\n(?P<body>.*?)```\n<!-- end include -->", re.S
)


def sync(write: bool = False) -> list[str]:
    stale = []
    for md in sorted((ROOT / "docs").glob("*.md")):
        text = md.read_text(encoding="utf-8")

        def repl(m: re.Match[str], md: Path = md) -> str:
            body = (ROOT / m.group("path")).read_text(encoding="utf-8")
            if body != m.group("body"):
                stale.append(f"{md.name}: {m.group('path')}")
            lang = m.group("lang")
            return f"<!-- include: {m.group('path')} -->\n```{lang}\n{body}```\n<!-- end include -->"

        new = BLOCK.sub(repl, text)
        if write and new != text:
            md.write_text(new, encoding="utf-8")
    return stale


def test_docs_examples_are_the_tested_files() -> None:
    assert sync() == [], "run: python tests/test_docs.py (rewrites the included blocks)"


if __name__ == "__main__":
    print(sync(write=True) or "docs in sync")
