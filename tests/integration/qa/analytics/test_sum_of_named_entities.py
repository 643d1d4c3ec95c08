"""One additive figure of several named entities, added up when the question asks a sum (ACME, no LLM)."""

from __future__ import annotations

import pytest

from ragspine.api.app import create_local_app
from ragspine.api.deps import services as services_dep
from ragspine.bootstrap import Services
from tests.support.ask import WAYS, Ask, asker


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, sample_services: Services) -> Ask:
    app = create_local_app()
    app.dependency_overrides[services_dep] = lambda: sample_services
    return asker(request.param, sample_services, app=app)


@pytest.mark.parametrize("question", [
    "What was the combined revenue of Japan and Hong Kong in FY2024?",
    "2024财年日本和香港的营业收入合计是多少",
])
def test_the_sum_of_named_entities_is_computed_and_cited(ask: Ask, question: str) -> None:
    answer = ask(question)["answer"]
    line = next(line for line in answer.splitlines() if "+" in line and "计算自" in line)
    assert "ACME_JP" in line and "ACME_HK" in line
    stated = [line for line in answer.splitlines() if "（来源：" in line and "+" not in line]
    total = sum(float(s.split("USD_M")[0].rsplit(" ", 2)[-2].split("：")[-1]) for s in stated)
    assert f"{total:g} USD_M" in line


def test_a_group_and_its_own_part_are_never_added(ask: Ask) -> None:
    answer = ask("What was the combined revenue of the group and Japan in FY2024?")["answer"]
    assert not any("+" in line and "计算自" in line for line in answer.splitlines())
