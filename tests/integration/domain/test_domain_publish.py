"""``ragspine domain publish``: a checked folder goes to the stack's S3 domain store, and the service answers from it.

S3 is moto. The service reads the store at ``RAGSPINE_DOMAIN_SOURCE`` (as the deployed functions
do, through the Powertools Parameters provider) with a cache age of 0, so each request asks again.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.aws.domain_store import forget_published_domain
from ragspine.bootstrap import current_services, domain_dir
from ragspine.cli import app
from ragspine.domain.files import default_domain_dir, shipped_domains_dir
from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import SlotKind
from ragspine.parsed_yaml import PARSED_FILE
from ragspine.settings import Settings, get_settings
from tests.support.process_caches import close_services

runner = CliRunner()
VELA = shipped_domains_dir() / "vela"
BUCKET = "ragspine-domainbucket"
SOURCE = f"s3://{BUCKET}/company-domain.json"


@pytest.fixture
def store(settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """An empty versioned bucket as the stack creates it, and the service pointed at its domain location."""
    import boto3

    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    monkeypatch.setenv("RAGSPINE_DOMAIN_SOURCE", SOURCE)
    monkeypatch.setenv("RAGSPINE_DOMAIN_MAX_AGE_S", "0")
    monkeypatch.delenv("RAGSPINE_DOMAIN_DIR", raising=False)
    forget_published_domain()
    get_settings.cache_clear()
    close_services()
    yield s3
    forget_published_domain()
    get_settings.cache_clear()
    close_services()


def _publish(folder: Path, *extra: str) -> Any:
    return runner.invoke(app, ["domain", "publish", str(folder), *extra], env={"COLUMNS": "200"})


def test_nothing_published_is_the_shipped_domain(store: Any) -> None:
    assert domain_dir() == default_domain_dir()
    assert current_services().glossary.home_entity == "ACME_GROUP"


def test_a_published_domain_is_what_the_service_answers_about(store: Any) -> None:
    # GIVEN a service already answering about the shipped domain
    before = current_services()
    assert before.glossary.home_entity == "ACME_GROUP"
    # WHEN the Vela folder is published to the store named by the settings
    result = _publish(VELA)
    # THEN it is stored as one version of the object
    assert result.exit_code == 0, result.output
    versions = store.list_object_versions(Bucket=BUCKET, Prefix="company-domain.json")["Versions"]
    assert len(versions) == 1 and f"(version {versions[0]['VersionId']})" in result.output
    # AND the next request rebuilds the services from Vela's files, without a restart
    folder = domain_dir()
    # (the domain files and the seal; a folder's parsed copies stay with it: the service parses a published file)
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in VELA.iterdir() if p.name != PARSED_FILE)
    assert (folder / "glossary.yaml").read_text(encoding="utf-8") == (VELA / "glossary.yaml").read_text(encoding="utf-8")
    after = current_services()
    assert after is not before and after.glossary.home_entity == "VELA_GROUP"
    assert after.glossary.normalize(SlotKind.METRIC, "病床稼働率") == "BED_OCCUPANCY"
    # AND asking again while nothing changed keeps the same services (a conditional read: not modified)
    assert current_services() is after


def test_publishing_the_same_folder_again_keeps_the_same_domain_folder(store: Any) -> None:
    assert _publish(VELA, "--to", SOURCE).exit_code == 0
    first = domain_dir()
    assert _publish(VELA, "--to", SOURCE).exit_code == 0
    assert domain_dir() == first


def test_a_folder_that_fails_the_check_is_not_published(store: Any, tmp_path: Path) -> None:
    # GIVEN a copy of Vela whose glossary names a home entity it does not define
    broken = tmp_path / "broken"
    shutil.copytree(VELA, broken)
    glossary = broken / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("home_entity: VELA_GROUP", "home_entity: NOBODY"),
                        encoding="utf-8")
    # WHEN it is published
    result = _publish(broken)
    # THEN publish says what `domain check` says, and stores nothing
    assert result.exit_code == 1
    assert "NOBODY is not one of the entities" in result.output
    assert "not published: 1 problem(s)" in result.output
    assert store.list_objects_v2(Bucket=BUCKET).get("KeyCount") == 0
    assert current_services().glossary.home_entity == "ACME_GROUP"


def test_publish_without_a_location_says_where_to_publish(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGSPINE_DOMAIN_SOURCE", raising=False)
    get_settings.cache_clear()
    result = _publish(VELA)
    assert result.exit_code == 2 and "--to s3://bucket/key" in result.output


def test_a_store_that_holds_no_domain_document_is_a_configuration_error(store: Any) -> None:
    store.put_object(Bucket=BUCKET, Key="company-domain.json", Body=b'{"files": {"../escape.yaml": "x"}}')
    with pytest.raises(ConfigurationError, match="not a ragspine-domain/1 document"):
        domain_dir()
    store.put_object(Bucket=BUCKET, Key="company-domain.json",
                     Body=b'{"format": "ragspine-domain/1", "files": {"../escape.yaml": "x"}}')
    with pytest.raises(ConfigurationError, match=r"files the service does not read \(\.\./escape\.yaml\)"):
        domain_dir()


def test_an_unreadable_store_is_a_configuration_error(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_DOMAIN_SOURCE", "s3://no-such-bucket-here/company-domain.json")
    get_settings.cache_clear()
    with pytest.raises(ConfigurationError, match="cannot read the published domain at s3://no-such-bucket-here/"):
        domain_dir()


def test_publishing_to_a_bucket_that_does_not_exist_says_so(store: Any) -> None:
    result = _publish(VELA, "--to", "s3://no-such-bucket-here/company-domain.json")
    assert result.exit_code == 2
    assert "cannot publish to s3://no-such-bucket-here/company-domain.json" in result.output
    assert "NoSuchBucket" in result.output
