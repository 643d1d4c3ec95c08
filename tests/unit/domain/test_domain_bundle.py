"""A published domain document unpacks into exactly the files that were bundled, and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.domain.bundle import FORMAT, bundle_domain, unpacked_domain
from ragspine.domain.checks import SCHEMAS
from ragspine.domain.files import shipped_domains_dir
from ragspine.errors import ConfigurationError

texts = st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=200)


@given(files=st.dictionaries(st.sampled_from(sorted(SCHEMAS)), texts, min_size=1))
def test_a_bundled_folder_unpacks_to_the_same_files(tmp_path_factory: pytest.TempPathFactory,
                                                    files: dict[str, str]) -> None:
    source = tmp_path_factory.mktemp("source")
    for name, text in files.items():
        (source / name).write_text(text, encoding="utf-8")
    (source / "notes.txt").write_text("not a domain file", encoding="utf-8")
    folder = unpacked_domain(bundle_domain(source), tmp_path_factory.mktemp("root"))
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()} == files


def test_the_same_document_is_unpacked_once(tmp_path: Path) -> None:
    document = bundle_domain(shipped_domains_dir() / "vela")
    first = unpacked_domain(document, tmp_path)
    assert unpacked_domain(document, tmp_path) == first
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no staging folder left behind


@given(name=st.text(min_size=1, max_size=40).filter(lambda n: n not in SCHEMAS))
def test_a_name_the_service_does_not_read_is_refused(tmp_path_factory: pytest.TempPathFactory, name: str) -> None:
    document = json.dumps({"format": FORMAT, "files": {name: "x"}}).encode()
    root = tmp_path_factory.mktemp("root")
    with pytest.raises(ConfigurationError, match="files the service does not read"):
        unpacked_domain(document, root)
    assert list(root.iterdir()) == []


@pytest.mark.parametrize("document", [b"not json", b"[]", b'{"format": "other", "files": {}}',
                                      json.dumps({"format": FORMAT, "files": {"glossary.yaml": 3}}).encode()])
def test_a_document_that_is_no_published_domain_is_refused(tmp_path: Path, document: bytes) -> None:
    with pytest.raises(ConfigurationError, match="ragspine domain publish"):
        unpacked_domain(document, tmp_path)
