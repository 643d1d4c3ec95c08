"""The cause a cited passage states for a why-question, when the model's answer leaves it out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.stated_causes import MAX_QUOTED, cause_to_name, gives_cause, unsaid_causes
from tests.fakes.narrative import evidence

LOTUS = evidence("为应对成本压力，日本于2024年第四季度启动了成本优化项目“Project Lotus”，范围涵盖采购、物流与门店运营。"
                 "日本门店网络继续稳步扩张。", locator="heading=日本（ACME_JP）,para=2")
PRICE = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。"
                 "この価格改定により、売上総利益率（粗利率）は前年から0.5ポイント回復しました。",
                 doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")
LOTUS_Q = "日本为什么在2024年第四季度启动Project Lotus？"
MARGIN_Q = "2025年に日本の粗利率が回復したのはなぜですか？"


def test_the_scope_alone_gets_the_passages_own_reason_quoted() -> None:
    quoted = unsaid_causes(LOTUS_Q, "Project Lotus的范围涵盖采购、物流与门店运营。", [LOTUS])

    assert quoted == [("为应对成本压力，日本于2024年第四季度启动了成本优化项目“Project Lotus”，范围涵盖采购、物流与门店运营。", LOTUS)]


def test_an_answer_that_gives_the_reason_gets_nothing_more() -> None:
    assert unsaid_causes(LOTUS_Q, "日本为应对成本压力启动了成本优化项目Project Lotus。", [LOTUS]) == []


def test_the_sentence_saying_why_the_margin_recovered_not_why_prices_rose() -> None:
    quoted = unsaid_causes(MARGIN_Q, "ACME_JPは2025年4月に棚価格を引き上げました。", [PRICE])

    assert [sentence for sentence, _ in quoted] == ["この価格改定により、売上総利益率（粗利率）は前年から0.5ポイント回復しました。"]


def test_a_cause_about_something_else_or_in_a_passage_not_cited_is_not_quoted() -> None:
    assert unsaid_causes("香港团队为什么审慎安排开店？", "香港团队以本地客群为核心。", [LOTUS]) == []
    assert unsaid_causes(LOTUS_Q, "Project Lotus的范围涵盖采购。", []) == []


def test_an_english_question_gets_no_chinese_quote() -> None:
    assert unsaid_causes("Why did Japan start Project Lotus in 2024?", "It covers procurement.", [LOTUS]) == []


sentences = st.lists(st.sampled_from([
    "为应对成本压力，日本启动了Project Lotus。", "由于日元走弱，日本的采购成本上升。", "日本因为汇率波动调整了Project Lotus。",
    "日本门店网络继续稳步扩张。", "为了减轻汇率影响，日本评估本地采购。"]), min_size=1, max_size=6)


@given(sentences, st.text(alphabet="日本成本压力启动采购。", max_size=20))
def test_every_quote_is_a_whole_sentence_of_a_cited_passage_and_there_are_few(parts: list[str], answer: str) -> None:
    passage = evidence("".join(parts), locator="heading=日本（ACME_JP）,para=1")
    quoted = unsaid_causes("日本为什么启动Project Lotus？", answer, [passage])

    assert len(quoted) <= MAX_QUOTED
    assert len({sentence for sentence, _ in quoted}) == len(quoted)
    assert all(sentence in parts and item is passage for sentence, item in quoted)


@pytest.mark.parametrize("answer", ["Japan started it because costs rose.", "日本为应对成本压力启动了项目。",
                                    "受汇率波动影响，成本上升。", "円安によって輸入コストが上がりました。",
                                    "Margins recovered as a result of the price rise."])
def test_an_answer_stating_a_cause_gives_one(answer: str) -> None:
    assert gives_cause(answer)


@pytest.mark.parametrize("answer", ["Project Lotus was started in 2024 and continues to be implemented in Japan.",
                                    "香港团队继续以本地客群为核心。", "Project Lotusは、2025年も継続しています。"])
def test_a_circumstance_gives_no_cause(answer: str) -> None:
    assert not gives_cause(answer)


def test_the_cause_named_is_the_first_on_the_question_among_the_passages_in_order() -> None:
    scope = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。")

    assert cause_to_name("Why did Japan start Project Lotus?", [scope, PRICE, LOTUS], [0, 1, 2]) == (2, LOTUS.text.split("。")[0] + "。")
    assert cause_to_name("Why did Japan start Project Lotus?", [scope, PRICE, LOTUS], [0, 1]) is None  # not among them
