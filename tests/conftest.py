"""Shared fixtures: settings under tmp_path, events, Lambda context, moto tables from template.yaml."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings as hypothesis_settings

from ragspine.settings import Settings, get_settings
from tests.support.cfn import REPO_ROOT, dynamodb_create_table_kwargs
from tests.support.fd_guard import FdGuard
from tests.support.moto_dynamodb import serialize_dynamodb_calls
from tests.support.process_caches import close_services
from tests.support.sam_build import build_once

if TYPE_CHECKING:
    from ragspine.bootstrap import Services

# No Hypothesis deadline anywhere: a per-example time limit is a timed assertion, and it fails
# on a loaded 2-core CI machine (seen: 305-502 ms against the 200 ms default). Speed lives in tests/bench.
hypothesis_settings.register_profile("ragspine", deadline=None)
hypothesis_settings.load_profile("ragspine")


# A test that skips because the handout's corpus (../shared/corpus) is absent: its skip reason names it.
_CORPUS_WORDS = ("corpus", "handout")
_NOT_ABSENT = ("not in this corpus",)  # a parametrised kind the corpus does not hold: a real skip


def _names_the_corpus(reason: str) -> bool:
    low = reason.lower()
    return any(w in low for w in _CORPUS_WORDS) and not any(w in low for w in _NOT_ABSENT)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``corpus`` every test a ``skipif`` ties to the corpus (``make test-corpus`` selects them); under
    xdist, hand out the long units of work first (tests/support/xdist_groups.py)."""
    for item in items:
        if any(_names_the_corpus(str(mark.kwargs.get("reason", ""))) for mark in item.iter_markers("skipif")):
            item.add_marker(pytest.mark.corpus)
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a worker of ``-n``: each collects and orders alike
        from tests.support.xdist_groups import long_units_first

        long_units_first(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """With ``RAGSPINE_REQUIRE_CORPUS=1`` (``make test-corpus``, CI), a skip for a missing corpus file fails:
    the evaluations that need the corpus are run, never skipped in silence."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (report.skipped and os.environ.get("RAGSPINE_REQUIRE_CORPUS") == "1"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if item.get_closest_marker("corpus") is not None and _names_the_corpus(reason):
        report.outcome = "failed"
        report.longrepr = f"RAGSPINE_REQUIRE_CORPUS=1 and the corpus is missing: {reason}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` keeps each folder of shared session services on one worker (tests/support/xdist_groups.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.support.xdist_groups import FileOrSharedFolderScheduling

    return FileOrSharedFolderScheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """Every moto DynamoDB request atomic, as the service's are (see tests/support/moto_dynamodb.py);
    each test module closes the descriptors it opens (tests/support/fd_guard.py); a test that names no data
    folder writes under a temporary one, never into the checkout's ``.ragspine``."""
    os.environ.setdefault("RAGSPINE_DATA_DIR", tempfile.mkdtemp(prefix="ragspine-tests-"))
    serialize_dynamodb_calls()
    config.pluginmanager.register(FdGuard(), "fd-guard")

EVENTS_DIR = REPO_ROOT / "events"
FACTS_TABLE = "ragspine-facts-test"
REGION = "us-east-1"
TODAY = "2026-11-30"


def _reset_caches() -> None:
    get_settings.cache_clear()
    close_services()


@pytest.fixture(autouse=True)
def _an_event_loop_as_a_fresh_process_has() -> Iterator[None]:
    """The Lambda handlers' Mangum reads the main thread's event loop, which a fresh Lambda process has; an
    earlier test's ``asyncio.run`` or Playwright leaves none set, so the tests run before one must not decide it."""
    try:
        asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        yield
        asyncio.set_event_loop(None)
        loop.close()
    else:
        yield


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Embedded settings with all state under tmp_path and a pinned clock."""
    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAGSPINE_TODAY", TODAY)
    monkeypatch.setenv("RAGSPINE_ENV", "test")
    monkeypatch.setenv("RAGSPINE_EMBEDDER", "none")  # BM25 only: fast; the dense leg has its own tests
    monkeypatch.delenv("RAGSPINE_BACKEND", raising=False)
    _reset_caches()
    yield get_settings()
    _reset_caches()


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """moto-backed AWS with fake credentials and the facts table built from template.yaml."""
    from moto import mock_aws

    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": REGION,
                        "AWS_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        import boto3

        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(**dynamodb_create_table_kwargs("FactsTable", FACTS_TABLE))
        yield client


@pytest.fixture
def aws_settings(settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Settings wired to the moto DynamoDB table, as in the deployed Lambda."""
    monkeypatch.setenv("RAGSPINE_BACKEND", "aws")
    monkeypatch.setenv("RAGSPINE_FACTS_TABLE", FACTS_TABLE)
    _reset_caches()
    yield get_settings()
    _reset_caches()


@pytest.fixture
def sample_services(settings: Settings) -> Iterator[Services]:
    """Embedded services holding the ACME sample facts, their clock on 30 November 2026; closed after the test."""
    from dataclasses import replace
    from datetime import date

    from ragspine.bootstrap import build_services
    from tests.support.samples import load_sample_facts

    services = build_services(settings)
    load_sample_facts(services.facts)
    wired = replace(services, qa=replace(services.qa, clock=lambda: date(2026, 11, 30)))
    yield wired
    wired.close()  # the same stores as ``services``, and the workflow stores a test may have built


@pytest.fixture(scope="session")
def sam_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build output of ``sam build`` (one per test run): each function's folder and each layer's."""
    return build_once(tmp_path_factory)


@pytest.fixture
def load_event() -> Callable[[str], dict[str, Any]]:
    """Read ``events/<name>.json``, the same files ``sam local invoke`` uses."""

    def load(name: str) -> dict[str, Any]:
        return json.loads((EVENTS_DIR / f"{name}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]

    return load


@dataclass(frozen=True)
class FakeLambdaContext:
    """The attributes of a Lambda context that Powertools reads."""

    function_name: str = "ragspine-ask"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:ragspine-ask"
    aws_request_id: str = "52fdfc07-2182-454f-963f-5f0f9a621d72"


@pytest.fixture
def lambda_context() -> FakeLambdaContext:
    """A stand-in Lambda context."""
    return FakeLambdaContext()


@pytest.fixture
def random_id() -> Callable[[str], str]:
    """Unique ids with a readable prefix."""
    return lambda prefix: f"{prefix}-{uuid.uuid4().hex[:12]}"
