"""YAML read from its parsed copy: the same data as a parse, only for the very text copied, and no PyYAML imported."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from tools.parsed_yaml import ENGINE, REGENERATE, SHIPPED_FOLDERS

from ragspine.parsed_yaml import PARSED_FILE, load, parse, parsed_copies, write_parsed
from tests.support.cfn import REPO_ROOT


def test_every_shipped_folder_holds_current_parsed_copies() -> None:
    # GIVEN the engine's shipped YAML folders
    for folder in SHIPPED_FOLDERS:
        # WHEN the copies are computed from the files as they are now
        expected = parsed_copies(ENGINE / folder)
        stored = json.loads((ENGINE / folder / PARSED_FILE).read_text(encoding="utf-8"))
        # THEN the folder holds exactly those, one for each of its YAML files
        assert stored == expected, f"{folder}/{PARSED_FILE} is not current: run `{REGENERATE}`"
        assert sorted(stored["files"]) == sorted(p.name for p in (ENGINE / folder).glob("*.yaml"))


def test_a_copied_file_is_read_from_its_copy_and_an_edited_one_is_parsed(tmp_path: Path) -> None:
    # GIVEN a folder with a YAML file and its parsed copy
    path = tmp_path / "rules.yaml"
    path.write_text("terms: [alpha, beta]\nlimit: 3\n", encoding="utf-8")
    write_parsed(tmp_path)
    # WHEN it is read as it is, then after an edit
    before = load(path, path.read_text(encoding="utf-8"))
    path.write_text("terms: [alpha]\nlimit: 4\n", encoding="utf-8")
    after = load(path, path.read_text(encoding="utf-8"))
    # THEN each read gives the data of the text read: the copy never stands for another text
    assert before == {"terms": ["alpha", "beta"], "limit": 3}
    assert after == {"terms": ["alpha"], "limit": 4}


def test_each_read_gives_its_own_objects(tmp_path: Path) -> None:
    # GIVEN a file read from its copy, and the data of that read changed by its reader
    path = tmp_path / "a.yaml"
    path.write_text("items: [1, 2]\n", encoding="utf-8")
    write_parsed(tmp_path)
    first = load(path, path.read_text(encoding="utf-8"))
    first["items"].append(3)
    # WHEN it is read again
    # THEN the second read is not the first one's objects
    assert load(path, path.read_text(encoding="utf-8")) == {"items": [1, 2]}


def test_data_json_cannot_hold_unchanged_is_left_to_pyyaml(tmp_path: Path) -> None:
    # GIVEN files whose data JSON would change (a date, an integer key) and a plain one
    texts = {"dated.yaml": "closed: 2024-03-31\n", "keyed.yaml": "years: {2024: open}\n",
             "plain.yaml": "name: ACME\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    # WHEN the folder's copies are written
    copies = json.loads(write_parsed(tmp_path).read_text(encoding="utf-8"))
    # THEN only the plain file has a copy, and every file still reads as PyYAML parses it
    assert sorted(copies["files"]) == ["plain.yaml"]
    for name, text in texts.items():
        assert load(tmp_path / name, text) == yaml.safe_load(text)


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                     st.floats(allow_nan=False, allow_infinity=False, width=32), st.text(max_size=12))
_DATA = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(min_size=1, max_size=8), inner,
                                                                       max_size=4)), max_leaves=20)


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(st.text(min_size=1, max_size=8), _DATA, max_size=5))
def test_a_copy_reads_as_the_parse_does_types_and_all(tmp_path_factory: Any, data: dict[str, Any]) -> None:
    # GIVEN any mapping written as YAML, and its folder's parsed copies
    folder = tmp_path_factory.mktemp("copies")
    path = folder / "data.yaml"
    text = yaml.safe_dump(data, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    write_parsed(folder)
    # WHEN it is read
    read = load(path, path.read_text(encoding="utf-8"))
    # THEN it is the data PyYAML parses, with the same types (1.0 stays a float, True a bool)
    parsed = parse(text)
    assert read == parsed
    assert json.dumps(read, sort_keys=True) == json.dumps(parsed, sort_keys=True)
    assert repr(read) == repr(parsed)


def test_reading_the_shipped_domain_and_configuration_imports_no_pyyaml() -> None:
    # GIVEN a fresh interpreter
    probe = textwrap.dedent(
        """
        import json, sys
        from ragspine.config_loader import config_path, load_yaml
        from ragspine.domain.files import default_domain_dir, read_file
        domain = default_domain_dir()
        data = {name: read_file(domain / name) for name in ("domain.yaml", "glossary.yaml", "intent.yaml")}
        data["screening"] = load_yaml(config_path("screening.yaml"))
        print(json.dumps({"yaml": "yaml" in sys.modules, "metrics": len(data["glossary.yaml"]["metrics"])}))
        """
    )
    # WHEN it reads the shipped domain's files and the engine's screening rules
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT / "shared")}, check=False)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    # THEN it read them all from their parsed copies: PyYAML was never imported
    assert outcome["yaml"] is False
    assert outcome["metrics"] > 5
