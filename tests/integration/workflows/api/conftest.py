"""Fixtures of the workflow-surface tests: stores (SQLite in tmp_path, DynamoDB under moto) and wired APIs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.settings import Settings
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.workflow_api import WorkflowApi, build_api

WORKFLOWS_TABLE = "ragspine-workflows-test"


@pytest.fixture
def sqlite_store(settings: Settings, tmp_path: Path) -> Iterator[SqliteWorkflowStore]:
    """An embedded store in its own file (its connections closed afterwards)."""
    store = SqliteWorkflowStore(tmp_path / "workflows.db")
    yield store
    store.close()


@pytest.fixture
def workflows_table(aws: Any) -> str:
    """The WorkflowsTable of template.yaml, created in moto."""
    aws.create_table(**dynamodb_create_table_kwargs("WorkflowsTable", WORKFLOWS_TABLE))
    return WORKFLOWS_TABLE


@pytest.fixture
def api(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """The local app with the execution gate open."""
    built = build_api(sqlite_store, enabled=True)
    yield built
    built.close()


@pytest.fixture
def closed_api(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """The local app with the execution gate closed (the default)."""
    built = build_api(sqlite_store, enabled=False)
    yield built
    built.close()
