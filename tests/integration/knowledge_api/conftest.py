"""The local app with the Gateway mounted, a fresh data folder, and a client holding a real token."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.settings import Settings
from tests.support.knowledge_api import Gateway, issue_token


@pytest.fixture
def gateway(settings: Settings) -> Iterator[Gateway]:
    """An admin client of a fresh Gateway."""
    get_knowledge_gateway.cache_clear()
    with TestClient(create_local_app(settings), raise_server_exceptions=False) as client:
        gw = Gateway(client, settings, issue_token())
        yield gw
        gw.settle()
    get_knowledge_gateway.cache_clear()
