"""``execute_query_metric`` returns exactly the tri-state of seed 001."""

from __future__ import annotations

import pytest

from ragspine.facts.glossary import Glossary
from ragspine.facts.query_metric import QUERY_METRIC_TOOL, QueryStatus, execute_query_metric
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary
from tests.unit.facts.test_fact_model import make_fact


@pytest.fixture
def glossary() -> Glossary:
    return default_glossary()


@pytest.fixture
def store() -> InMemoryFactStore:
    return InMemoryFactStore([make_fact()])


def test_found_carries_value_unit_codes_and_source_exactly_as_seed_001(store, glossary) -> None:
    result = execute_query_metric({"metric": "REVENUE", "entity": "中国内地", "period": "FY2024"},
                                  facts=store, glossary=glossary)
    assert result.to_dict() == {
        "status": "found", "value": 1320, "unit": "USD_M", "metric_code": "REVENUE", "entity": "ACME_CN",
        "period_type": "FY", "period": "2024", "channel": "TOTAL",
        "source": {"doc": "ACME_FY2024_Review.pptx", "locator": "slide=2,table=1,row=REVENUE,col=FY2024"},
    }


def test_not_found_returns_the_normalised_parameters_and_no_value(store, glossary) -> None:
    result = execute_query_metric({"metric": "营业收入", "entity": "ACME_CN", "period": "2025年", "channel": "合计"},
                                  facts=store, glossary=glossary)
    assert result.to_dict() == {
        "status": "not_found",
        "normalized": {"metric_code": "REVENUE", "entity": "ACME_CN", "period": "2025", "channel": "TOTAL"},
    }


@pytest.mark.parametrize(
    ("arguments", "param", "raw"),
    [
        ({"metric": "happiness", "entity": "ACME_CN", "period": "FY2024"}, "metric", "happiness"),
        ({"metric": "REVENUE", "entity": "some unknown company", "period": "FY2024"}, "entity",
         "some unknown company"),
        ({"metric": "REVENUE", "entity": "ACME_CN", "period": "2024年第五季度"}, "period", "2024年第五季度"),
        ({"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024", "channel": "telepathy"}, "channel",
         "telepathy"),
        ({"entity": "ACME_CN", "period": "FY2024"}, "metric", ""),
        ({"metric": 42, "entity": "ACME_CN", "period": "FY2024"}, "metric", "42"),
    ],
)
def test_unrecognized_param_names_the_parameter_and_its_raw_text(store, glossary, arguments, param, raw) -> None:
    result = execute_query_metric(arguments, facts=store, glossary=glossary)
    assert result.status is QueryStatus.UNRECOGNIZED_PARAM
    assert result.to_dict() == {"status": "unrecognized_param", "param": param, "raw": raw}
    assert store.lookups == []  # nothing is looked up with a parameter nobody understood


def test_tool_schema_is_a_closed_function_calling_schema() -> None:
    params = QUERY_METRIC_TOOL["parameters"]
    assert QUERY_METRIC_TOOL["name"] == "query_metric"
    assert set(params["properties"]) == {"metric", "entity", "period", "channel"}
    assert params["required"] == ["metric", "entity", "period"]
    assert params["additionalProperties"] is False
