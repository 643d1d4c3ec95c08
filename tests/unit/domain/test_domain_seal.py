"""A sealed domain folder is read without checking its files again; anything else is checked as before."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.domain.bundle import bundle_domain, unpacked_domain
from ragspine.domain.checks import SCHEMAS, check_file
from ragspine.domain.file_names import DOMAIN_FILES
from ragspine.domain.files import GLOSSARY, one_reading, read_file, shipped_domains_dir
from ragspine.domain.seal import SEAL_FILE, folder_files, seal_of, sealed_files, valid_seal, vouches_for, write_seal
from ragspine.errors import ConfigurationError

SHIPPED = sorted(p.parent.name for p in shipped_domains_dir().glob(f"*/{GLOSSARY}"))
RESEAL = "run `ragspine domain check --seal shared/ragspine/shipped_domains/{name}` and commit checked.json"


@pytest.fixture
def sealed(tmp_path: Path) -> Path:
    folder = tmp_path / "acme"
    shutil.copytree(shipped_domains_dir() / "acme", folder)
    write_seal(folder)
    return folder


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_domain_carries_a_current_seal(name: str) -> None:
    folder = shipped_domains_dir() / name
    sealed = valid_seal(json.loads((folder / SEAL_FILE).read_text(encoding="utf-8")))
    assert sealed is not None, f"the seal of {name} was written by other checking rules: {RESEAL.format(name=name)}"
    current = seal_of(folder_files(folder))["files"]
    assert sealed == current, f"{name}'s files changed since it was sealed: {RESEAL.format(name=name)}"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_sealed_file_reads_as_the_checked_file_does(name: str) -> None:
    folder = shipped_domains_dir() / name
    for file in sorted(set(SCHEMAS) & set(folder_files(folder))):
        assert vouches_for(folder, file, (folder / file).read_text(encoding="utf-8"))
        assert read_file(folder / file) == check_file(folder, file).data


def test_serving_a_sealed_domain_loads_no_schema() -> None:
    # The point of the seal: a cold start reading a sealed folder never builds the pydantic schemas.
    code = ("import sys\nfrom ragspine.domain.files import default_domain_dir, read_file\n"
            "from ragspine.domain.file_names import DOMAIN_FILES\n"
            "[read_file(default_domain_dir() / n) for n in sorted(DOMAIN_FILES) if (default_domain_dir() / n).is_file()]\n"
            "print(sorted(m for m in sys.modules if m in ('ragspine.domain.schemas', 'ragspine.domain.checks')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_edited_file_in_a_sealed_folder_is_checked(sealed: Path) -> None:
    glossary = sealed / GLOSSARY
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("home_entity:", "home_entty:", 1),
                        encoding="utf-8")
    with pytest.raises(ConfigurationError, match="home_entity: required field is missing"):
        read_file(glossary)


def test_a_change_to_another_file_of_the_folder_withdraws_the_seal(sealed: Path) -> None:
    # The glossary's check reads domain.yaml (the packs it includes): the seal covers the folder as a whole.
    (sealed / "domain.yaml").write_text((sealed / "domain.yaml").read_text(encoding="utf-8") + "\n# edited\n",
                                        encoding="utf-8")
    assert not vouches_for(sealed, GLOSSARY, (sealed / GLOSSARY).read_text(encoding="utf-8"))


def test_a_seal_written_by_other_rules_vouches_for_nothing(sealed: Path) -> None:
    seal = json.loads((sealed / SEAL_FILE).read_text(encoding="utf-8"))
    (sealed / SEAL_FILE).write_text(json.dumps({**seal, "rules": "0" * 64}), encoding="utf-8")
    assert not vouches_for(sealed, GLOSSARY, (sealed / GLOSSARY).read_text(encoding="utf-8"))


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(sorted(SCHEMAS)), at=st.integers(min_value=0), extra=st.text(min_size=1, max_size=5))
def test_any_change_to_a_sealed_text_is_not_vouched_for(sealed: Path, file: str, at: int, extra: str) -> None:
    text = (sealed / file).read_text(encoding="utf-8")
    at %= len(text) + 1
    assert not vouches_for(sealed, file, text[:at] + extra + text[at:])


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(sorted(SCHEMAS)), at=st.integers(min_value=0), extra=st.text(min_size=1, max_size=5))
def test_any_change_to_a_sealed_folder_withdraws_its_files(sealed: Path, file: str, at: int, extra: str) -> None:
    text = (sealed / file).read_text(encoding="utf-8")
    at %= len(text) + 1
    assert sealed_files(sealed) == folder_files(sealed)
    (sealed / file).write_text(text[:at] + extra + text[at:], encoding="utf-8")
    try:
        assert sealed_files(sealed) is None
    finally:
        (sealed / file).write_text(text, encoding="utf-8")


_COUNT_OPENS = """
import collections, json, sys
from pathlib import Path
from ragspine.domain.file_names import DOMAIN_FILES
from ragspine.domain.files import default_domain_dir, one_reading, read_file
folder = default_domain_dir()
names = [n for n in sorted(DOMAIN_FILES) if (folder / n).is_file()]
opened = collections.Counter()
sys.addaudithook(lambda event, args: opened.update([Path(args[0]).name]) if event == "open"
                 and isinstance(args[0], str) and Path(args[0]).parent == folder else None)
with one_reading():
    once = [read_file(folder / n) for n in names]
within = dict(opened)
opened.clear()
again = [read_file(folder / n) for n in names]
print(json.dumps({"within": within, "outside": dict(opened), "alike": once == again, "names": names}))
"""


def test_within_one_reading_each_file_of_a_sealed_folder_is_opened_once() -> None:
    # GIVEN the shipped, sealed domain, each of its files read in turn (as building the services reads them)
    done = subprocess.run([sys.executable, "-c", _COUNT_OPENS], capture_output=True, text=True, check=True)
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    # THEN within one reading each file and the seal are opened once, and the data is what each read gives alone
    assert outcome["alike"]
    assert outcome["within"] == dict.fromkeys([*outcome["names"], SEAL_FILE, "parsed.json"], 1)
    # AND outside a reading every read opens the seal and the whole folder again (what the reading saves)
    assert outcome["outside"][SEAL_FILE] == len(outcome["names"])


def test_within_one_reading_a_sealed_folder_is_served_as_first_read(sealed: Path) -> None:
    # GIVEN a sealed folder whose glossary is read within a reading
    glossary = sealed / GLOSSARY
    text = glossary.read_text(encoding="utf-8")
    with one_reading():
        first = read_file(glossary)
        # WHEN the glossary is made invalid during that reading
        glossary.write_text(text.replace("home_entity:", "home_entty:", 1), encoding="utf-8")
        # THEN the reading keeps serving the folder it checked against the seal: one version of the folder
        assert read_file(glossary) == first
    # AND a read after the reading sees the edit, which the seal no longer covers, and checks it
    with pytest.raises(ConfigurationError, match="home_entity: required field is missing"):
        read_file(glossary)


def test_within_one_reading_a_folder_edited_after_its_seal_is_checked_file_by_file(sealed: Path) -> None:
    glossary = sealed / GLOSSARY
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("home_entity:", "home_entty:", 1),
                        encoding="utf-8")
    assert set(DOMAIN_FILES) & set(folder_files(sealed))  # the folder still holds its domain files
    with one_reading(), pytest.raises(ConfigurationError, match="home_entity: required field is missing"):
        read_file(glossary)


def test_a_published_bundle_carries_the_seal_of_the_checked_files(tmp_path: Path) -> None:
    source = shipped_domains_dir() / "vela"
    folder = unpacked_domain(bundle_domain(source, checked=folder_files(source)), tmp_path)
    assert vouches_for(folder, GLOSSARY, (folder / GLOSSARY).read_text(encoding="utf-8"))
    assert read_file(folder / GLOSSARY) == check_file(source, GLOSSARY).data


def test_a_bundle_without_a_seal_is_checked_when_read(tmp_path: Path) -> None:
    folder = unpacked_domain(bundle_domain(shipped_domains_dir() / "vela"), tmp_path)
    assert not (folder / SEAL_FILE).exists()
    assert not vouches_for(folder, GLOSSARY, (folder / GLOSSARY).read_text(encoding="utf-8"))


def test_a_bundle_edited_after_it_was_sealed_is_checked_when_read(tmp_path: Path) -> None:
    source = shipped_domains_dir() / "vela"
    document = json.loads(bundle_domain(source, checked=folder_files(source)))
    document["files"][GLOSSARY] = document["files"][GLOSSARY].replace("home_entity:", "home_entty:", 1)
    folder = unpacked_domain(json.dumps(document).encode("utf-8"), tmp_path)
    with pytest.raises(ConfigurationError, match="home_entity: required field is missing"):
        read_file(folder / GLOSSARY)
