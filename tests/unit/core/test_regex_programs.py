"""The kept regex programs: each builds the pattern ``re`` compiles, and ``re`` finds it in its cache."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ragspine import regex_programs

PYENV = Path.home() / ".pyenv" / "versions"


def _kept_entries() -> list[dict[str, object]]:
    entries = regex_programs.read_programs()
    assert entries, f"no programs for this interpreter in {regex_programs.PROGRAMS_DIR}"
    return entries


def test_each_kept_program_builds_the_pattern_re_compiles() -> None:
    # GIVEN this interpreter's kept programs
    for entry in _kept_entries():
        text, flags = str(entry["pattern"]), int(str(entry["flags"]))
        # WHEN a pattern is built from its program
        built = regex_programs.compiled_from_entry(entry)
        # THEN it is the pattern re compiles from the text: same program, flags and groups (Pattern equality
        # compares the program), and it matches alike
        compiled = importlib.import_module("re._compiler").compile(text, flags)
        assert built == compiled, text
        assert (built.groups, built.groupindex, built.flags) == (compiled.groups, compiled.groupindex, compiled.flags)


def test_a_warmed_cache_gives_the_kept_pattern_to_re_compile_and_re_search(tmp_path: Path) -> None:
    # GIVEN a folder with this interpreter's programs of two patterns, one with named groups
    document = regex_programs.programs_document([(r"(?P<year>\d{4})年度", 0), (r"fy\s?(\d{2,4})", re.IGNORECASE)])
    path = regex_programs.programs_file(tmp_path)
    assert path is not None
    path.write_text(json.dumps(document), encoding="ascii")
    re.purge()
    # WHEN re's cache is warmed from it
    assert regex_programs.warm_regex_cache(tmp_path) == 2
    # THEN re.compile finds the kept patterns instead of compiling them, and they read what re's would
    assert regex_programs.warm_regex_cache(tmp_path) == 0  # already there: nothing put twice
    year = re.compile(r"(?P<year>\d{4})年度")
    assert year is re.compile(r"(?P<year>\d{4})年度")
    match = year.search("2024年度の売上高")
    assert match is not None and match.group("year") == "2024"
    assert re.findall(r"fy\s?(\d{2,4})", "FY2023 and fy 24", re.IGNORECASE) == ["2023", "24"]
    re.purge()


@pytest.mark.parametrize("written_by", ["magic", "compiler"])
def test_programs_written_by_another_engine_or_compiler_are_not_used(tmp_path: Path, written_by: str) -> None:
    # GIVEN a file named for this interpreter whose programs another version of re's engine, or another text
    # of its compiler (a patch release's), wrote
    document = regex_programs.programs_document([(r"(\d+)億円", 0)])
    document[written_by] = {"magic": 20000101, "compiler": "0" * 64}[written_by]
    path = regex_programs.programs_file(tmp_path)
    assert path is not None
    path.write_text(json.dumps(document), encoding="ascii")
    re.purge()
    # WHEN re's cache is warmed from it
    # THEN nothing is put, and the pattern is compiled from its text as before
    assert regex_programs.warm_regex_cache(tmp_path) == 0
    assert re.findall(r"(\d+)億円", "売上高 120億円") == ["120"]
    re.purge()


def _interpreters(tag: str) -> list[str]:
    """The interpreters of cache tag ``tag`` (``cpython-312``) found on PATH, in /usr/bin or under pyenv."""
    version = f"{tag[len('cpython-')]}.{tag[len('cpython-') + 1:]}"
    found = [shutil.which(f"python{version}"), f"/usr/bin/python{version}",
             *sorted(str(path) for path in PYENV.glob(f"{version}.*/bin/python{version}"))]
    return list(dict.fromkeys(path for path in found if path and Path(path).is_file()))


@pytest.mark.parametrize("path", sorted(regex_programs.PROGRAMS_DIR.glob("*.json")), ids=lambda path: path.stem)
def test_each_interpreters_file_holds_what_that_interpreter_compiles(path: Path) -> None:
    # GIVEN a kept file of programs, named for the interpreter and the text of re's compiler that wrote it
    document = json.loads(path.read_text(encoding="ascii"))
    assert path.name == regex_programs.programs_name(document["python"], document["compiler"])
    patterns = [[entry["pattern"], entry["flags"]] for entry in document["patterns"]]
    # WHEN an interpreter of that tag found here computes the programs of the same patterns
    for python in _interpreters(document["python"]):
        done = subprocess.run([python, "-I", "-P", regex_programs.__file__], input=json.dumps(patterns),
                              capture_output=True, text=True, check=False)
        computed = json.loads(done.stdout) if done.returncode == 0 else {}  # a shim with no such version: none
        if computed.get("compiler") == document["compiler"]:
            # THEN, where its re is the one that wrote the file, they are the kept ones, word for word
            assert computed == document
            return
    pytest.skip(f"no {document['python']} interpreter with re's compiler {document['compiler'][:16]} here")
