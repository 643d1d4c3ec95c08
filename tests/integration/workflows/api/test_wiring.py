"""The composition root wires the workflow surfaces from settings, lazily, on the backend asked for."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.aws.dynamo_workflows import DynamoWorkflowStore
from ragspine.bootstrap import build_workflow_components, get_services
from ragspine.errors import ConfigurationError
from ragspine.settings import Settings, load_settings
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore


def test_the_embedded_default_keeps_workflows_in_the_data_folder_with_the_gate_closed(settings: Settings) -> None:
    components = get_services().workflows
    assert isinstance(components.store, SqliteWorkflowStore) and settings.workflows_db_path.exists()
    assert components.gate.enabled is False and components.code is None
    assert components.webhook.methods == frozenset({"GET", "POST"}) and components.scaffold.dsl_version == "0.6.0"
    assert get_services().workflows is components  # built once per process


def test_settings_reach_every_component(settings: Settings) -> None:
    tuned = load_settings(data_dir=settings.data_dir, dify_run_enabled=True, workflow_code_enabled=True,
                          workflow_http_allowlist="API.example.com, hooks.example.org",
                          workflow_webhook_methods="post,put", workflow_webhook_max_bytes=100,
                          workflow_dsl_version="0.7.0")
    components = build_workflow_components(tuned, llm=None)
    assert components.gate.enabled and components.code is not None
    assert components.http.allowlist == ("api.example.com", "hooks.example.org")
    assert components.webhook.methods == frozenset({"POST", "PUT"}) and components.webhook.max_bytes == 100
    assert components.registry().dsl_version == "0.7.0"


def test_aws_needs_the_workflows_table(aws_settings: Settings, aws: Any) -> None:
    with pytest.raises(ConfigurationError, match="RAGSPINE_WORKFLOWS_TABLE"):
        build_workflow_components(aws_settings, llm=None)
    with_table = load_settings(backend="aws", facts_table="f", workflows_table="w")
    assert isinstance(build_workflow_components(with_table, llm=None).store, DynamoWorkflowStore)


@pytest.mark.parametrize("methods", ["GET,TRACE", "CONNECT"])
def test_unknown_webhook_methods_are_refused_at_start_up(methods: str) -> None:
    with pytest.raises(ConfigurationError, match="RAGSPINE_WORKFLOW_WEBHOOK_METHODS"):
        load_settings(workflow_webhook_methods=methods)
