"""The artifact suite notices a build that lacks what a function reads at run time.

A copy of the build output loses one resource of the engine layer (the OpenSearch mapping, the
domain folder); the same calls the suite makes then fail with the service's configuration error.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.artifact.conftest import built_stack
from tests.integration.whole_stack.conftest import BusinessSystem
from tests.support.stack import Stack

pytestmark = pytest.mark.slow  # runs the sam build output (tests/support/sam_build.py)

ENGINE = Path("EngineLayer") / "python"


def without(build_dir: Path, copy: Path, resource: str) -> Path:
    """A copy of ``build_dir`` (links, except the engine package, copied) without ``ragspine/<resource>``."""
    copy.mkdir(parents=True)
    for entry in build_dir.iterdir():
        if entry.name != "EngineLayer":
            (copy / entry.name).symlink_to(entry.resolve())
    (copy / ENGINE).mkdir(parents=True)
    for entry in (build_dir / ENGINE).iterdir():
        if entry.name != "ragspine":
            (copy / ENGINE / entry.name).symlink_to(entry.resolve())
    shutil.copytree(build_dir / ENGINE / "ragspine", copy / ENGINE / "ragspine")
    removed = copy / ENGINE / "ragspine" / resource
    assert removed.exists(), f"the build has no ragspine/{resource} to remove"
    shutil.rmtree(removed) if removed.is_dir() else removed.unlink()
    return copy


@pytest.fixture
def damaged(sam_build: Path, aws_endpoint: str, osmem: str, key_set: tuple[Any, Path], settings: Any,
            monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]], lambda_context: Any,
            tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Stack]:
    build = without(sam_build, tmp_path / "damaged", request.param)
    yield from built_stack(monkeypatch, load_event, lambda_context, build_dir=build, workdir=tmp_path / "lambda",
                           server=aws_endpoint, search_endpoint=osmem,
                           extra_environment={"RAGSPINE_KNOWLEDGE_ASSERTION_JWKS": str(key_set[1])})


@pytest.mark.parametrize("damaged", ["aws/chunks-index.json"], indirect=True)
def test_without_the_mapping_a_new_space_never_gets_its_index(damaged: Stack, key_set: tuple[Any, Path],
                                                              load_event: Callable[[str], dict[str, Any]]) -> None:
    from ragspine.bootstrap import build_knowledge_store
    from ragspine.knowledge.identity import new_token
    from ragspine.settings import get_settings

    settings = get_settings()
    token, record = new_token("crm")
    build_knowledge_store(settings).put_token(record)
    crm = BusinessSystem(damaged, token, key_set[0], settings.knowledge_assertion_issuer,
                         settings.knowledge_assertion_audience, load_event("knowledge_space_create"))
    status, payload = crm.call("POST", "/spaces", {"code": "acme-policies", "name": "ACME policies",
                                                   "profileCode": "enterprise-long-document",
                                                   "defaultSecurityDomainCode": "internal"})
    assert status >= 500 and "CONFIGURATION" in payload["meta"]["error"]["code"], payload


@pytest.mark.parametrize("damaged", ["shipped_domains"], indirect=True)
def test_without_the_domain_the_ask_function_cannot_answer(damaged: Stack,
                                                           load_event: Callable[[str], dict[str, Any]]) -> None:
    event = load_event("ask_found")
    event["body"] = json.dumps({"question": "2024年日本的毛利率是多少"}, ensure_ascii=False)
    response = damaged.invoke("AskFunction", event)
    assert response["statusCode"] >= 500 and "CONFIGURATION" in response["body"], response
