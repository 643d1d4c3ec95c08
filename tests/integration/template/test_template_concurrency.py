"""The workflow-running functions have a concurrency cap an operator sets, or leaves unset.

A flood of long workflow runs within the stage throttle must not take the account's Lambda
concurrency that ``/v1/ask`` and the Gateway need: the workflow, webhook and code-runner
functions reserve (and so are capped at) what ``WorkflowConcurrency`` and
``CodeRunnerConcurrency`` say. "none" or "0" leaves the property out (``AWS::NoValue``), since an
account with a low concurrency limit cannot reserve any; a reservation of 0 would stop the function.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.cfn import NO_VALUE, load_template, resolve

CAPPED = {"WorkflowFunction": "WorkflowConcurrency", "WebhookFunction": "WorkflowConcurrency",
          "CodeRunnerFunction": "CodeRunnerConcurrency"}
MAX_RESERVATION = 9999


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _reserved(template: dict[str, Any], function: str, parameters: dict[str, str]) -> Any:
    properties = template["Resources"][function]["Properties"]
    return resolve(properties.get("ReservedConcurrentExecutions", {"Ref": "AWS::NoValue"}), template, parameters)


def _accepts(template: dict[str, Any], parameter: str, value: str) -> bool:
    """Whether CloudFormation takes ``value`` for ``parameter`` (its AllowedPattern must match it whole)."""
    return re.fullmatch(template["Parameters"][parameter]["AllowedPattern"], value) is not None


@pytest.mark.parametrize(("function", "parameter"), sorted(CAPPED.items()))
class TestReservedConcurrency:
    @pytest.mark.parametrize("value", ["1", "10", "250", str(MAX_RESERVATION)])
    def test_a_number_is_reserved_as_the_functions_cap(self, template: dict[str, Any], function: str,
                                                       parameter: str, value: str) -> None:
        assert _reserved(template, function, {parameter: value}) == value

    @pytest.mark.parametrize("value", ["none", "0"])
    def test_none_or_zero_leaves_the_property_out(self, template: dict[str, Any], function: str, parameter: str,
                                                  value: str) -> None:
        assert _reserved(template, function, {parameter: value}) is NO_VALUE

    def test_the_default_is_a_small_cap(self, template: dict[str, Any], function: str, parameter: str) -> None:
        default = template["Parameters"][parameter]["Default"]
        assert _accepts(template, parameter, default)
        assert 1 <= int(_reserved(template, function, {})) <= 20


def test_the_code_runner_default_covers_one_call_from_every_workflow_and_webhook_instance(
        template: dict[str, Any]) -> None:
    runs = sum(int(_reserved(template, name, {})) for name in ("WorkflowFunction", "WebhookFunction"))
    assert int(_reserved(template, "CodeRunnerFunction", {})) >= runs


def test_the_other_functions_reserve_nothing_and_share_the_rest_of_the_account(template: dict[str, Any]) -> None:
    functions = {name for name, resource in template["Resources"].items()
                 if resource["Type"] == "AWS::Serverless::Function"}
    reserving = {name for name in functions
                 if "ReservedConcurrentExecutions" in template["Resources"][name]["Properties"]}
    assert reserving == set(CAPPED)
    assert "ReservedConcurrentExecutions" not in template["Globals"]["Function"]


@pytest.mark.parametrize("parameter", sorted(set(CAPPED.values())))
@pytest.mark.parametrize("value", ["00", "010", "-1", "1.5", "", " 10", "10 ", "None", "NONE", "10000", "ten"])
def test_values_that_are_not_a_plain_count_are_refused(template: dict[str, Any], parameter: str, value: str) -> None:
    assert not _accepts(template, parameter, value)


@given(value=st.one_of(st.integers(min_value=0, max_value=MAX_RESERVATION * 2).map(str),
                       st.text(alphabet="0123456789none -+.", max_size=6)))
def test_an_accepted_value_is_none_or_a_count_without_leading_zeros(template: dict[str, Any], value: str) -> None:
    for parameter in set(CAPPED.values()):
        accepted = _accepts(template, parameter, value)
        plain_count = value.isdigit() and str(int(value)) == value and int(value) <= MAX_RESERVATION
        assert accepted == (value == "none" or plain_count), (parameter, value)
