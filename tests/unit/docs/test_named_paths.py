"""Every module, test and tool path a docs page or the README names exists, so a newcomer following one lands on a file.

Two forms are checked: paths from the repository root (``shared/ragspine/qa/answer.py``,
``tests/eval/run.py``, ``functions/ask/app.py``, ``tools/settings_doc.py``) and paths inside the
engine package as the pages write them (``qa/near_miss.py``, ``retrieval/fusion.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "shared" / "ragspine"
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
# Written by a run, not kept in git (gitignored): named as where to look, not as a file to open.
RUN_OUTPUTS = ("tests/bench/results/", "tests/browser/artifacts/")
FROM_ROOT = re.compile(r"(?<![\w./-])((?:shared|tests|functions|tools)/[\w./*<>{},-]*[\w/*>}])")
PACKAGES = sorted(p.name for p in ENGINE.iterdir() if p.is_dir() and (p / "__init__.py").exists())
IN_ENGINE = re.compile(rf"(?<![\w./-])((?:{'|'.join(PACKAGES)})/[\w/]*\w\.(?:py|yaml|json|js|html|css))\b")


def named_paths(text: str) -> list[str]:
    """Root-relative paths named in ``text``, less placeholders and globs (``<package>``, ``test_*.py``, ``{a,b}``)."""
    paths = [match.rstrip(".") for match in FROM_ROOT.findall(text)]
    return [p for p in paths if not re.search(r"[*<>{}]", p) and not p.startswith(RUN_OUTPUTS)]


def exists(path: str) -> bool:
    """The path is a file or folder, or names a handler or test inside one (``app.handler``, ``test_x.py::Test``)."""
    path = path.split("::", 1)[0]
    if (ROOT / path).exists():
        return True
    module, _, attribute = path.rpartition(".")
    return bool(attribute) and attribute != "py" and (ROOT / f"{module}.py").is_file()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_path_from_the_repository_root_exists(page: Path) -> None:
    missing = sorted({path for path in named_paths(page.read_text(encoding="utf-8")) if not exists(path)})
    assert not missing, f"{page.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_engine_module_named_by_its_package_path_exists(page: Path) -> None:
    named = set(IN_ENGINE.findall(page.read_text(encoding="utf-8")))
    missing = sorted(path for path in named if not (ENGINE / path).exists())
    assert not missing, f"{page.name} names engine modules that do not exist under shared/ragspine/: {missing}"


def test_the_patterns_find_paths_and_skip_placeholders() -> None:
    text = ("see `shared/ragspine/qa/answer.py`, tests/eval/run.py, `qa/near_miss.py`, "
            "`tests/{unit,integration}/<package>/`, `tests/eval/test_*.py` and `functions/ask/app.handler`.")
    assert named_paths(text) == ["shared/ragspine/qa/answer.py", "tests/eval/run.py", "functions/ask/app.handler"]
    assert IN_ENGINE.findall(text) == ["qa/near_miss.py"]
    assert exists("functions/ask/app.handler") and exists("tests/eval/run.py")
    assert not exists("shared/ragspine/qa/structure.py") and not exists("tests/eval/nothing.py::Test")
