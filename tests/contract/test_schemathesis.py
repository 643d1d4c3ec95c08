"""Every published contract says what the routes do: schemathesis against the local app, in process.

One OpenAPI document covers every surface: the ordinary engine, catalog and compiler routes, the
Dify-compatible app API (with a valid app key), the n8n-compatible API (with a valid
X-N8N-API-KEY), the webhooks, ask and search. The run is the one ``schemathesis run`` does (its
engine, every phase: examples, coverage with negative data and undeclared methods, fuzzing, and
the stateful phase over the links it infers; every check), over the ASGI app instead of a socket,
with a bounded number of examples so that it stays around a minute. Any failure fails the test
with schemathesis' own description. By hand, against a running service::

    schemathesis --config-file tests/contract/schemathesis.toml run http://127.0.0.1:8000/openapi.json \\
        -H 'Authorization: Bearer app-…' -H 'X-N8N-API-KEY: …'
"""

from __future__ import annotations

import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.settings import get_settings
from ragspine.workflows.surfaces.key_admin import create_app_key, create_n8n_key
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.fakes.llm import RecordingLLMProvider
from tests.support.contract_run import ContractRun, run_engine
from tests.support.process_caches import close_services
from tests.support.workflow_api import LLM_REPLY, make_components, summarise_dsl

pytestmark = pytest.mark.slow  # schemathesis over every operation, every phase: minutes

schemathesis = pytest.importorskip("schemathesis")

CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_EXAMPLES = 10
SEED = 16
SURFACES = {"/v1/workflows/run": "dify", "/v1/workflows/tasks/": "dify", "/v1/parameters": "dify", "/v1/info": "dify",
            "/api/v1/": "n8n", "/webhook/": "webhook", "/v1/workflows/": "ordinary", "/v1/catalog/": "ordinary", "/v1/ask": "ask",
            "/v1/search": "search", "/healthz": "health"}


def _reset() -> None:
    get_settings.cache_clear()
    close_services()


@pytest.fixture(scope="module")
def contract_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ContractRun]:
    """One run over the local app (every router, a fresh data folder), an app key and an n8n key on every call."""
    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    data = tmp_path_factory.mktemp("contract")
    with pytest.MonkeyPatch.context() as env, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, value in {"RAGSPINE_DATA_DIR": str(data / "data"), "RAGSPINE_ENV": "test",
                            "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": "2026-11-30"}.items():
            env.setenv(name, value)
        env.delenv("RAGSPINE_BACKEND", raising=False)
        _reset()
        components = make_components(SqliteWorkflowStore(data / "workflows.db"), enabled=True,
                                     llm=RecordingLLMProvider([LLM_REPLY]), max_bytes=64 * 1024, burst=100_000)
        app = create_local_app()
        app.dependency_overrides[workflow_components] = lambda: components
        headers = {"Authorization": f"Bearer {create_app_key(components, document=summarise_dsl()).plaintext}",
                   "X-N8N-API-KEY": create_n8n_key(components).plaintext}
        config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
        config.update(headers=headers, seed=SEED, workers=1,
                      generation={"max-examples": MAX_EXAMPLES, "mode": "all"})
        schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=schemathesis.Config.from_dict(config))
        yield run_engine(schema)
    _reset()


def test_every_phase_ran(contract_run: ContractRun) -> None:
    assert not contract_run.errors, "\n".join(contract_run.errors)
    assert {"examples", "coverage", "fuzzing", "stateful"} <= set(contract_run.phases), contract_run.phases


@pytest.mark.parametrize("surface", sorted(set(SURFACES.values())))
def test_the_surface_keeps_its_published_contract(contract_run: ContractRun, surface: str) -> None:
    def surface_of(label: str) -> str:
        path = label.split(" ", 1)[-1]
        return next((name for prefix, name in SURFACES.items() if path.startswith(prefix)), "other")

    tested = {label for label in contract_run.tested if surface_of(label) == surface}
    assert tested, f"schemathesis tested no {surface} operation"
    failures = [f for f in contract_run.failures if surface_of(f.split(":", 1)[0]) == surface]
    assert not failures, f"{len(failures)} contract failure(s):\n\n" + "\n\n".join(failures)


def test_every_published_operation_was_tested(contract_run: ContractRun) -> None:
    assert contract_run.published and not contract_run.published - contract_run.tested, sorted(
        contract_run.published - contract_run.tested)


def test_no_failure_outside_a_surface(contract_run: ContractRun) -> None:
    known = tuple(SURFACES)
    stray = [f for f in contract_run.failures if not f.split(":", 1)[0].split(" ", 1)[-1].startswith(known)]
    assert not stray, "\n\n".join(stray)
