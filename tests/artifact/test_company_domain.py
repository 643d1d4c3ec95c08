"""A company's own domain on the built stack: published to the stack's domain bucket, answered by the built functions.

The operator's ``ragspine domain publish`` runs in this process against the moto server; the
built worker and ask function (their own python3.12 processes, see ``tests/artifact/functions.py``)
read the published domain from S3 through the layer's code. The stack is deployed with
``DomainRefreshSeconds=1`` so the warm ask function sees the new domain a second later, without a
restart. The second domain is Vela Health, shipped as a sample beside ACME.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from tests.artifact.conftest import built_stack
from tests.support.cfn import REPO_ROOT
from tests.support.stack import Stack, wait_for_executions

pytestmark = pytest.mark.slow  # runs the sam build output (tests/support/sam_build.py)

VELA = shipped_domains_dir() / "vela"
REVIEW = REPO_ROOT / "shared" / "ragspine" / "samples" / "vela" / "Vela_FY2025_Annual_Review.docx"
HOSPITALS = "What was the Hospitals division's revenue in FY2025?"
ACME_MARGIN = "2024年日本的毛利率是多少"
REFRESH_S = 1
runner = CliRunner()


@pytest.fixture
def stack(settings: Any, sam_build: Path, aws_endpoint: str, osmem: str, key_set: tuple[Any, Path],
          monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]], lambda_context: Any,
          tmp_path: Path) -> Iterator[Stack]:
    """The built stack whose functions ask their domain bucket again after a second."""
    yield from built_stack(monkeypatch, load_event, lambda_context, build_dir=sam_build, workdir=tmp_path / "lambda",
                           server=aws_endpoint, search_endpoint=osmem,
                           extra_environment={"RAGSPINE_KNOWLEDGE_ASSERTION_JWKS": str(key_set[1])},
                           parameters={"DomainRefreshSeconds": str(REFRESH_S)})


def _ask(stack: Stack, load_event: Callable[[str], dict[str, Any]], question: str) -> dict[str, Any]:
    event = load_event("ask_found")
    event["body"] = json.dumps({"question": question}, ensure_ascii=False)
    response = stack.invoke("AskFunction", event)
    assert response["statusCode"] == 200, response["body"]
    return json.loads(response["body"])  # type: ignore[no-any-return]


def _publish(folder: Path, location: str) -> Any:
    return runner.invoke(app, ["domain", "publish", str(folder), "--to", location], env={"COLUMNS": "200"})


def _stored(stack: Stack) -> list[Any]:
    listed = stack.client("s3").list_objects_v2(Bucket=stack.names["DomainBucket"])
    return list(listed.get("Contents", []))


def test_the_built_functions_answer_about_the_published_domain(
        stack: Stack, load_event: Callable[[str], dict[str, Any]]) -> None:
    location = stack.environment["RAGSPINE_DOMAIN_SOURCE"]
    assert location == f"s3://{stack.names['DomainBucket']}/company-domain.json"
    # GIVEN the built ask function, warm, answering about the shipped sample domain (nothing published)
    before = _ask(stack, load_event, HOSPITALS)
    assert "1226.0" not in before["answer"] and before["slots"].get("entity") != ["HOSPITALS"], before
    # WHEN the operator publishes Vela's domain to the stack's DomainLocation
    published = _publish(VELA, location)
    assert published.exit_code == 0, published.output
    assert [item["Key"] for item in _stored(stack)] == ["company-domain.json"]
    time.sleep(REFRESH_S + 0.2)
    # AND Vela's annual review is uploaded: the built worker extracts its facts with Vela's glossary
    stack.put_object("UploadsBucket", f"uploads/{REVIEW.name}", REVIEW.read_bytes())
    assert wait_for_executions(stack) == ["SUCCEEDED"]
    # THEN the same warm ask function answers from Vela's glossary, with the table cell it read
    answer = _ask(stack, load_event, HOSPITALS)
    assert (answer["route"], answer["status"]) == ("structured", "found"), answer
    assert "1226.0 EUR_M" in answer["answer"]
    assert [(s["doc"], s["locator"]) for s in answer["sources"]] == [(REVIEW.name, "table=2,row=Revenue,col=FY2025")]
    # AND Vela's own words reach it: the Japanese name of its metric
    occupancy = _ask(stack, load_event, "病院事業のFY2025の病床稼働率は？")
    assert occupancy["slots"]["metric"] == ["BED_OCCUPANCY"], occupancy


def test_a_domain_that_fails_the_check_is_not_published(
        stack: Stack, load_event: Callable[[str], dict[str, Any]], tmp_path: Path) -> None:
    # GIVEN a copy of Vela whose glossary names a home entity it does not define
    broken = tmp_path / "broken"
    shutil.copytree(VELA, broken)
    glossary = broken / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("home_entity: VELA_GROUP", "home_entity: NOBODY"),
                        encoding="utf-8")
    # WHEN the operator publishes it to the stack
    result = _publish(broken, stack.environment["RAGSPINE_DOMAIN_SOURCE"])
    # THEN publish refuses it with the check's message, stores nothing, and the functions keep the shipped domain
    assert result.exit_code == 1
    assert "glossary.yaml:3: home_entity: NOBODY is not one of the entities" in result.output, result.output
    assert _stored(stack) == []
    answer = _ask(stack, load_event, ACME_MARGIN)
    assert answer["slots"]["entity"] == ["ACME_JP"], answer
