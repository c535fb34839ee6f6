"""docs/architecture.md's "Where a new thing goes" lists stay true: every file a new dialect, variant,
provider, check or SUT kind touches exists (``<name>``-style placeholders match at least one file), and
each list names at most four files; a new built-in variant names two, its row and its scenario."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def _lists() -> dict[str, list[str]]:
    text = DOC.read_text()
    where = text[text.index("## Where a new thing goes") :]
    out: dict[str, list[str]] = {}
    for block in re.split(r"^### ", where, flags=re.M)[1:]:
        title, _, body = block.partition("\n")
        out[title.strip()] = re.findall(r"^- `([^`]+)`", body, flags=re.M)
    return out


def test_the_three_additions_are_listed() -> None:
    assert set(_lists()) == {
        "A new dialect", "A new variant", "A new provider", "A new check", "A new SUT kind"
    }


def test_each_list_names_at_most_four_files_and_they_exist() -> None:
    for title, files in _lists().items():
        assert 1 <= len(files) <= 4, (title, files)
        for name in files:
            pattern = re.sub(r"<[a-z]+>", "*", name)
            assert list(ROOT.glob(pattern)), f"{title}: {name} matches no file"


def test_a_new_variant_touches_two_files_its_row_and_its_scenario() -> None:
    files = _lists()["A new variant"]
    assert len(files) == 2
    assert files[0].startswith("harness/dialects/")
    assert files[0].endswith(".toml")
    assert files[1].startswith("scenarios/")


# The one package whose tests live under another name: the pytest plugin is proven by the route a user
# takes, a scratch project run through pytest.
_TESTS_OF = {"plugin": "pytest_route"}


def test_tests_mirror_the_packages() -> None:
    packages = sorted(p.parent.name for p in (ROOT / "harness").glob("*/__init__.py"))
    missing = [p for p in packages if not (ROOT / "tests" / _TESTS_OF.get(p, p)).is_dir()]
    assert packages
    assert not missing, f"packages whose tests have no folder of their own: {missing}"
    assert not (ROOT / "tests" / "suite").exists(), "tests/suite was split into catalog, runner and judge"
