"""The repository-root pages link only to files that exist (docs/ itself is checked by `make docs`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PAGES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
# Inline links and images, [text](target) / ![alt](target); external and in-page links are skipped.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _targets(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks hold commands, not links
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:|#", target)]


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_points_at_a_file(page: str) -> None:
    missing = [target for target in _targets(page) if not (ROOT / target.split("#", 1)[0]).exists()]
    assert not missing, f"{page} links to files that do not exist: {missing}"


def test_the_readme_stays_short_and_shows_the_screenshots() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("\n") <= 250, "README.md is the entry point: move detail into a page under docs/"
    images = [target for target in _targets("README.md") if target.startswith("docs/images/")]
    assert images, "the README shows the ask page"


def test_the_link_pattern_finds_links_and_images() -> None:
    assert LINK.findall("see [a](docs/a.md#x) and ![b](docs/images/b.png), not [c] (d)") == [
        "docs/a.md#x", "docs/images/b.png"]
