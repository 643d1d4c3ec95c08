"""Deterministic analytics on ACME through ``answer_question`` and ``POST /v1/ask`` (no LLM).

Every figure carries its source; every computed one (change, gap, share, sum) carries
``（计算自：…）`` with its inputs' sources, and the provenance check accepts it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ragspine.api.app import create_local_app
from ragspine.api.deps import services as services_dep
from ragspine.bootstrap import Services
from ragspine.qa.answer import answer_question
from tests.support.ask import WAYS, Ask, asker

COMPUTED = re.compile(r"（计算自：([^（）]*)）")


@pytest.fixture
def wired(sample_services: Services) -> Services:
    return sample_services


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, wired: Services) -> Ask:
    app = create_local_app()
    app.dependency_overrides[services_dep] = lambda: wired  # /v1/ask answers from the same wired services
    return asker(request.param, wired, app=app)


def computed_line(body: dict[str, Any], marker: str) -> str:
    """The one answer line holding ``marker``; it must cite its inputs, each among the answer's sources."""
    lines = [line for line in body["answer"].splitlines() if marker in line]
    assert len(lines) == 1, body["answer"]
    cited = COMPUTED.search(lines[0])
    assert cited is not None, lines[0]
    sources = {f"{s['doc']} · {s['locator']}" for s in body["sources"]}
    assert set(cited.group(1).split("；")) <= sources
    return str(lines[0])


class TestPriorPeriod:
    def test_year_over_year_gives_both_years_and_the_change(self, ask: Ask) -> None:
        body = ask("日本2024年净利润同比变化多少？")
        assert (body["route"], body["status"]) == ("structured", "found")
        assert "FY2023 净利润（NET_PROFIT）：38.4 USD_M（来源：" in body["answer"]
        assert "FY2024 净利润（NET_PROFIT）：29.5 USD_M（来源：" in body["answer"]
        line = computed_line(body, "较 FY2023")
        assert "减少 8.9 USD_M（−23.18%）" in line

    @pytest.mark.parametrize("question", [
        "Japan net profit FY2024 year over year", "How did Japan's net profit in 2024 change from last year?",
        "日本の2024年度の純利益の前年比", "Japan net profit 2024 vs last year",
        "日本の2024年度の純利益は前年から何%変わりましたか", "How did Japan net profit in 2024 change from the previous year?",
    ])
    def test_the_same_comparison_in_other_words(self, ask: Ask, question: str) -> None:
        body = ask(question)
        assert body["status"] == "found"
        assert body["slots"]["period"] == ["FY2023", "FY2024"]
        assert "8.9 USD_M" in body["answer"] and "23.18%" in body["answer"]

    def test_a_percentage_changes_in_points(self, ask: Ask) -> None:
        line = computed_line(ask("2024年日本毛利率同比"), "较 FY2023")
        assert "减少 2.0个百分点" in line

    def test_quarter_over_quarter_crosses_the_year(self, ask: Ask) -> None:
        body = ask("2025年第一季度日本营收环比")
        assert body["slots"]["period"] == ["2024Q4", "2025Q1"]
        assert "减少 10 USD_M（−5.81%）" in computed_line(body, "较 2024Q4")

    def test_a_missing_prior_period_is_said_and_nothing_is_computed(self, ask: Ask) -> None:
        body = ask("日本2023年净利润同比")
        assert body["status"] == "partial"
        assert "未找到 日本（ACME_JP）FY2022 净利润" in body["answer"]
        assert "无法计算" in body["answer"] and "计算自" not in body["answer"]
        note = next(line for line in body["answer"].splitlines() if "无法计算" in line)
        assert set(re.findall(r"\d+(?:\.\d+)?", note)) == {"2022", "2023"}


class TestEntityComparisonAndRanking:
    def test_which_is_higher_names_the_winner_and_by_how_much(self, ask: Ask) -> None:
        body = ask("香港和中国内地2025年的净利润哪个更高？")
        line = computed_line(body, "最高的是")
        assert "最高的是中国内地（ACME_CN），比香港（ACME_HK）高 138.8 USD_M" in line

    def test_the_segment_with_the_most_operating_profit(self, ask: Ask) -> None:
        body = ask("Which segment earned the most operating profit in FY2024?")
        assert body["slots"]["entity"] == ["ACME_CN", "ACME_HK", "ACME_JP"]
        line = computed_line(body, "Highest:")
        assert ("ranking (highest first): Mainland China (ACME_CN) 184.8 USD_M; Japan (ACME_JP) 45.9 USD_M; "
                "Hong Kong (ACME_HK) 30.4 USD_M.") in line
        assert "Highest: Mainland China (ACME_CN), 138.9 USD_M above Japan (ACME_JP)" in line

    def test_a_tie_is_stated(self, ask: Ask) -> None:
        line = computed_line(ask("各地区2025年毛利率排名"), "最高的是")
        assert "最高的是中国内地（ACME_CN）、香港（ACME_HK）（并列，均为 42.0 PCT），比日本（ACME_JP）高 5.5个百分点" in line

    def test_lowest_and_top_n(self, ask: Ask) -> None:
        assert "Lowest: Japan (ACME_JP), 5.5 points below" in ask(
            "Which region had the lowest gross margin in 2025?")["answer"]
        line = computed_line(ask("Top 2 regions by revenue in 2025"), "Highest:")
        assert "Mainland China (ACME_CN) 1452 USD_M; Japan (ACME_JP) 672 USD_M." in line
        assert "Hong Kong (ACME_HK) 351" not in line

    def test_with_no_entity_named_the_parts_of_the_group_are_ranked_and_that_is_said(self, ask: Ask) -> None:
        body = ask("Who had the highest revenue in 2025?")
        assert body["slots"]["entity"] == ["ACME_CN", "ACME_HK", "ACME_JP"]
        assert "Highest: Mainland China (ACME_CN), 780 USD_M above Japan (ACME_JP)" in body["answer"]
        assert "no entity named, so the parts of ACME Group (ACME_GROUP)" in body["answer"]

    def test_ichiban_in_japanese(self, ask: Ask) -> None:
        body = ask("2025年度の営業利益が一番高い地域は？")
        assert "最も高いのは中国本土（ACME_CN）" in body["answer"]


class TestEnumeration:
    @pytest.mark.parametrize("question", ["列出2025年各地区的门店数", "Store count of each region in 2025",
                                          "2025年度の各地域の店舗数"])
    def test_each_region_expands_to_the_regions(self, ask: Ask, question: str) -> None:
        body = ask(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        assert body["slots"]["entity"] == ["ACME_CN", "ACME_HK", "ACME_JP"]
        for value in ("471", "54", "208"):
            assert f"{value} COUNT（来源：" in body["answer"]

    def test_a_named_region_is_not_expanded(self, ask: Ask) -> None:
        assert ask("香港地区2025年的门店数")["slots"]["entity"] == ["ACME_HK"]


class TestRelativePeriods:
    def test_last_year_is_resolved_and_stated(self, ask: Ask) -> None:
        body = ask("Japan revenue last year")
        assert body["slots"]["period"] == ["FY2025"]
        assert "no period named" not in body["answer"]
        assert "“last year” read as FY2025" in body["answer"]

    def test_last_quarter_from_the_clock(self, ask: Ask) -> None:
        body = ask("上季度日本营收")  # 30 November 2026: the last quarter is 2026Q3, not in the facts
        assert body["slots"]["period"] == ["2026Q3"] and body["status"] == "not_found"
        assert "「上季度」" in body["answer"]

    def test_last_year_with_year_over_year(self, ask: Ask) -> None:
        body = ask("去年日本营收同比")
        assert body["slots"]["period"] == ["FY2024", "FY2025"]
        assert "增加 17 USD_M（+2.60%）" in body["answer"]


class TestShareAndSums:
    def test_share_of_the_group(self, ask: Ask) -> None:
        line = computed_line(ask("2025年香港营收占比"), "占集团")
        assert "香港（ACME_HK）FY2025 营业收入（REVENUE）占集团（ACME_GROUP）的 14.2%" in line

    def test_no_share_of_a_percentage(self, ask: Ask) -> None:
        body = ask("2025年香港毛利率占比")
        assert "不可加总" in body["answer"] and "计算自" not in body["answer"]

    def test_quarters_are_added_beside_the_stated_total(self, ask: Ask) -> None:
        body = ask("中国内地2024年各季度营收合计")
        assert "FY2024 营业收入（REVENUE）：1320 USD_M（来源：ACME_FY2024_Review.pptx" in body["answer"]
        line = computed_line(body, "四个季度合计")
        assert "四个季度合计 1320 USD_M，与公布的全年数 1320 USD_M 一致" in line

    def test_store_counts_are_never_summed(self, ask: Ask) -> None:
        body = ask("集团2025年门店数各季度合计")
        assert body["slots"]["period"] == ["FY2025"]
        assert "不可加总" in body["answer"]


@pytest.mark.parametrize(("question", "marker"), [
    ("What was the average quarterly revenue of Japan in FY2024?", "2024Q1–2024Q4 average: 163.75 USD_M"),
    ("Japan quarterly average revenue in 2024", "2024Q1–2024Q4 average: 163.75 USD_M"),
    ("2024年日本各季度平均营业收入", "2024Q1–2024Q4平均值：163.75 USD_M"),
    ("日本の2024年度の四半期平均売上高", "2024Q1–2024Q4の平均：163.75 USD_M"),
])
def test_the_quarters_mean_is_the_answer_never_the_years_figure_alone(ask: Ask, question: str, marker: str) -> None:
    body = ask(question)
    # the mean leads, cited to the four quarters; the year's 655 follows as what they were read beside
    assert body["answer"].splitlines()[0] == computed_line(body, marker)
    assert "四个季度合计" not in body["answer"] and "four quarters" not in body["answer"]


class TestGrowthRanked:
    """"Which region grew fastest" ranks each region's growth over the prior year, never the figures themselves."""

    @pytest.mark.parametrize(("question", "marker", "ranked", "verdict"), [
        ("Which region grew revenue fastest in FY2025?", "growth over FY2024 ranking (highest first)",
         "Mainland China (ACME_CN) +10.00%; Hong Kong (ACME_HK) +3.85%; Japan (ACME_JP) +2.60%",
         "Highest: Mainland China (ACME_CN), 6.15 points above Hong Kong (ACME_HK)"),
        ("Which region had the highest revenue growth in FY2025?", "growth over FY2024 ranking (highest first)",
         "Mainland China (ACME_CN) +10.00%", "6.15 points above Hong Kong (ACME_HK)"),
        ("哪个地区2025年营收增长最快", "较 FY2024 增长率排名（从高到低）",
         "中国内地（ACME_CN） +10.00%；香港（ACME_HK） +3.85%；日本（ACME_JP） +2.60%", "最高的是中国内地（ACME_CN），比香港（ACME_HK）高 6.15个百分点"),
        ("2025年度に売上高の伸び率が最も高い地域は？", "のFY2024比伸び率の順位（高い順）",
         "中国本土（ACME_CN） +10.00%", "最も高いのは中国本土（ACME_CN）、香港（ACME_HK）より 6.15ポイント 高い"),
        ("Which region had the lowest net profit growth in 2025?", "growth over FY2024 ranking (lowest first)",
         "Japan (ACME_JP) +8.14%; Hong Kong (ACME_HK) +14.42%; Mainland China (ACME_CN) +17.89%",
         "Lowest: Japan (ACME_JP), 6.28 points below Hong Kong (ACME_HK)"),
    ])
    def test_the_growth_is_ranked(self, ask: Ask, question: str, marker: str, ranked: str, verdict: str) -> None:
        body = ask(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        line = computed_line(body, marker)
        assert ranked in line and verdict in line
        # each region's change over the year is shown and cited beside the ranking; no ranking of the amounts
        assert sum("（计算自：" in each for each in body["answer"].splitlines()) == 4, body["answer"]
        assert "1452 USD_M; " not in body["answer"] and "1452 USD_M；" not in body["answer"]

    def test_its_rates_and_gap_pass_the_provenance_check(self, wired: Services) -> None:
        result = answer_question("Which region grew revenue fastest in FY2025?", qa=wired.qa)
        decisions = result.trace["decisions"]
        assert isinstance(decisions, list) and "provenance:pass" in decisions, decisions


@pytest.mark.parametrize(("question", "verdict"), [
    ("Compare Hong Kong and Japan net profit in 2025", "Highest: Japan (ACME_JP), 7.3 USD_M above Hong Kong (ACME_HK)"),
    ("Hong Kong vs Japan net profit 2025", "Highest: Japan (ACME_JP), 7.3 USD_M above Hong Kong (ACME_HK)"),
    ("比较2025年香港和日本的净利润", "最高的是日本（ACME_JP），比香港（ACME_HK）高 7.3 USD_M"),
    ("2025年度の香港と日本の純利益を比較して", "最も高いのは日本（ACME_JP）、香港（ACME_HK）より 7.3 USD_M 高い"),
    ("Compare Hong Kong and Japan revenue growth in 2025", "Highest: Hong Kong (ACME_HK), 1.25 points above Japan"),
])
def test_two_entities_compared_say_which_is_higher_and_by_how_much(ask: Ask, question: str, verdict: str) -> None:
    body = ask(question)
    assert (body["route"], body["status"]) == ("structured", "found")
    computed_line(body, verdict)


@pytest.mark.parametrize(("question", "marker"), [
    ("What was revenue per store in Japan in FY2024?",
     "Japan (ACME_JP) FY2024 revenue (REVENUE) per store count (STORE_COUNT): 3.26 USD_M"),
    ("What was the ratio of revenue to store count in Japan in FY2024?", "per store count (STORE_COUNT): 3.26 USD_M"),
    ("What was net profit per store for Hong Kong in 2025?", "per store count (STORE_COUNT): 0.46 USD_M"),
    ("日本2024年营业收入与门店数之比", "平均每单位门店数（STORE_COUNT）的营业收入（REVENUE）：3.26 USD_M"),
])
def test_money_per_thing_counted_is_computed_never_answered_with_the_money(ask: Ask, question: str,
                                                                          marker: str) -> None:
    body = ask(question)
    assert (body["route"], body["status"]) == ("structured", "found")
    assert body["answer"].splitlines()[0] == computed_line(body, marker)
    assert "units differ" not in body["answer"]


@pytest.mark.parametrize(("question", "marker", "verdict"), [
    ("Which quarter of 2024 had the highest revenue in Japan?",
     "FY2024 revenue (REVENUE) by quarter (highest first): 2024Q4 172 USD_M; 2024Q3 165 USD_M; 2024Q2 160 USD_M; "
     "2024Q1 158 USD_M", "Highest: 2024Q4, 7 USD_M above 2024Q3"),
    ("Which quarter had the lowest revenue for Hong Kong in 2025?", "by quarter (lowest first)",
     "Lowest: 2025Q2, 1 USD_M below 2025Q1"),
    ("2024年日本哪个季度营收最高", "各季度排名（从高到低）", "最高的是2024Q4，比2024Q3高 7 USD_M"),
    ("2024年度に日本の売上高が最も低かったのはどの四半期ですか", "の四半期別順位（低い順）", "最も低いのは2024Q1、2024Q2より 2 USD_M 低い"),
])
def test_a_years_quarters_are_ranked(ask: Ask, question: str, marker: str, verdict: str) -> None:
    body = ask(question)
    assert (body["route"], body["status"]) == ("structured", "found")
    assert verdict in computed_line(body, marker)


@pytest.mark.parametrize(("question", "change"), [
    ("How many stores did Mainland China open in 2025?", "Mainland China (ACME_CN) store count (STORE_COUNT): "
     "FY2025 vs FY2024 up 25 COUNT"),
    ("How many net new stores did Japan add in 2025?", "FY2025 vs FY2024 up 7 COUNT"),
    ("How many stores did Hong Kong close in 2024?", "FY2024 vs FY2023 down 3 COUNT"),
])
def test_stores_opened_or_closed_are_the_years_change_never_the_year_end_count(ask: Ask, question: str,
                                                                              change: str) -> None:
    body = ask(question)
    assert (body["route"], body["status"]) == ("structured", "found")
    computed_line(body, change)


def test_stores_held_are_the_year_end_count(ask: Ask) -> None:
    body = ask("How many stores did Japan have in 2024?")
    assert body["answer"].startswith("Japan (ACME_JP) FY2024 store count (STORE_COUNT): 201 COUNT（来源：")
    assert "计算自" not in body["answer"]


WHOLE_UNCLEAR = ("which figure is the whole", "哪一个数值是整体", "どの数値が全体")


class TestSharesOfAWholeNamed:
    """A share whose whole the question names is computed, and never beside a note that its whole is unclear."""

    @pytest.mark.parametrize(("question", "marker", "share"), [
        ("What share of group revenue came from Japan in FY2024?", "is 28.3% of ACME Group", "28.3"),
        ("Hong Kong revenue as a percentage of group revenue in FY2024", "is 14.6% of ACME Group", "14.6"),
        ("What proportion of group revenue did Japan contribute in FY2024?", "is 28.3% of ACME Group", "28.3"),
        ("2024年日本营业收入占集团的比例是多少", "占集团（ACME_GROUP）的 28.3%", "28.3"),
        ("2024年度の日本の売上高はグループ全体の何%ですか", "はグループ（ACME_GROUP）の 28.3%", "28.3"),
    ])
    def test_a_part_of_its_parent(self, ask: Ask, question: str, marker: str, share: str) -> None:
        body = ask(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        assert share in computed_line(body, marker)
        assert not any(note in body["answer"] for note in WHOLE_UNCLEAR), body["answer"]

    @pytest.mark.parametrize(("question", "marker"), [
        ("What percentage of Hong Kong revenue was online in 2023?",
         "Hong Kong (ACME_HK) FY2023 online (ONLINE) revenue (REVENUE) is 15.1% of its total (TOTAL) revenue"),
        ("2023年香港营业收入中线上占比是多少", "香港（ACME_HK）FY2023 线上（ONLINE）营业收入（REVENUE）占其合计（TOTAL）营业收入（REVENUE）的 15.1%"),
        ("线上收入占2023年香港营业收入的比例是多少", "占其合计（TOTAL）营业收入（REVENUE）的 15.1%"),
        ("2023年度の香港の売上高に占めるオンラインの割合は？", "オンライン（ONLINE）売上高（REVENUE）は合計（TOTAL）売上高（REVENUE）の 15.1%"),
        ("Japan offline revenue as a percentage of Japan revenue in 2025", "is 72.0% of its total (TOTAL) revenue"),
    ])
    def test_a_channel_of_its_entity_over_all_channels(self, ask: Ask, question: str, marker: str) -> None:
        body = ask(question)
        assert (body["route"], body["status"]) == ("structured", "found")
        computed_line(body, marker)
        # the whole is the entity's own figure over all channels: nothing of its parent is looked up
        assert "ACME_GROUP" not in body["answer"], body["answer"]
        assert not any(note in body["answer"] for note in WHOLE_UNCLEAR), body["answer"]

    def test_a_channel_inside_the_whole_asks_the_parents_figure_of_that_channel(self, ask: Ask) -> None:
        body = ask("What share of online revenue came from Japan in FY2024?")
        # the group states no online revenue: the share is not computed, and the missing whole is said
        assert "No data for ACME Group (ACME_GROUP) FY2024 revenue (REVENUE) · online (ONLINE)" in body["answer"]
        assert "计算自" not in body["answer"] and "of its total" not in body["answer"]


def test_a_repeated_analytics_question_gives_the_same_answer_from_the_parse_cache(wired: Services) -> None:
    question = "香港和中国内地2025年的净利润哪个更高？"
    answers = [answer_question(question, qa=wired.qa) for _ in range(3)]
    decisions = answers[1].trace["decisions"]
    assert isinstance(decisions, list), decisions
    assert decisions[0] == "parse_cache:hit"
    assert {a.answer for a in answers} == {answers[0].answer}


def test_an_unknown_name_in_an_analytics_question_is_still_reported_as_written(ask: Ask) -> None:
    body = ask("Wayne Enterprises revenue 2025 year over year")
    assert body["status"] == "unrecognized_param"
    assert "“Wayne Enterprises”" in body["answer"]
