"""template.yaml publishes the ask function with SnapStart, and every API invokes that published version."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.cfn import load_template

# Lambda SnapStart's runtimes for Python, and the largest /tmp it snapshots.
SNAPSTART_PYTHON = ("python3.12", "python3.13")
SNAPSTART_MAX_EPHEMERAL_MB = 512


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _ask(template: dict[str, Any]) -> dict[str, Any]:
    return {**template["Globals"]["Function"], **template["Resources"]["AskFunction"]["Properties"]}


def test_the_ask_function_snapshots_each_published_version(template: dict[str, Any]) -> None:
    ask = _ask(template)
    assert ask["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    assert ask["AutoPublishAlias"] == "live"  # SAM publishes a version on each deploy; only versions snapshot
    # what SnapStart supports: a Python runtime from 3.12, /tmp of at most 512 MB, no provisioned concurrency
    assert ask["Runtime"] in SNAPSTART_PYTHON
    assert ask.get("EphemeralStorage", {"Size": 512})["Size"] <= SNAPSTART_MAX_EPHEMERAL_MB
    assert "ProvisionedConcurrencyConfig" not in ask
    assert ask["Tracing"] == "Active"  # tracing is kept


def test_every_route_to_the_ask_function_invokes_its_published_alias(template: dict[str, Any]) -> None:
    # The REST API's events are wired to the alias by SAM (AutoPublishAlias); the page's HTTP API names it.
    events = template["Resources"]["AskFunction"]["Properties"]["Events"]
    assert {event["Type"] for event in events.values()} == {"Api"}
    named = [(name, resource) for name, resource in template["Resources"].items()
             if name != "AskFunction" and "AskFunction" in str(resource)]
    unpublished = [name for name, resource in named
                   if "'AskFunction'" in str(resource) and "Alarm" not in name]  # alarms watch every version
    assert unpublished == []
    assert {name for name, _ in named} >= {"PageAskIntegration", "PageAskPermission"}
