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


@pytest.mark.parametrize("question", [
    "Did Mainland China, Hong Kong and Japan's revenue add up to the group's revenue in FY2024?",
    "2024财年中国内地、香港和日本的营业收入之和是否等于集团的营业收入",
])
def test_the_parts_of_a_whole_are_checked_against_it(ask: Ask, question: str) -> None:
    answer = ask(question)["answer"]
    line = next(line for line in answer.splitlines() if "计算自" in line and "ACME_GROUP" in line)
    assert "ACME_CN" in line and "ACME_HK" in line and "ACME_JP" in line
    stated = {code: _stated(answer, code) for code in ("ACME_GROUP", "ACME_CN", "ACME_HK", "ACME_JP")}
    parts = stated["ACME_CN"] + stated["ACME_HK"] + stated["ACME_JP"]
    assert f"{stated['ACME_GROUP']:g} USD_M" in line and f"{parts:g} USD_M" in line, line
    agree = stated["ACME_GROUP"] == parts
    assert ("yes, they match" in line or "：一致" in line) if agree else ("differ" in line or "不一致" in line)


def _stated(answer: str, code: str) -> float:
    """The figure of the one stated line of ``code``."""
    line = next(line for line in answer.splitlines() if (f"{code})" in line or f"{code}）" in line) and "（来源：" in line)
    return float(line.split("（来源：")[0].rsplit(" ", 2)[-2].split("：")[-1])
