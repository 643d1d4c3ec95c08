"""An answer whose cited passages never name what was asked (the entity, project or year) is unsupported.

The replies are those a 1.5B model gave to questions only the RESTRICTED board minutes answer:
each cited a public passage about another project. The passages are the sample documents'.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary
from ragspine.qa.citing import cite
from ragspine.qa.evidence import Evidence
from ragspine.qa.language import Lang
from ragspine.qa.subject import speaks_of, subject_of, unmet
from tests.fakes.narrative import evidence
from tests.support.glossary import default_glossary

LOTUS_JA = evidence("2024年第4四半期に始まったコスト削減プログラム「Project Lotus」は、2025年も継続しています。",
                    doc="ACME_JP_2025_Report.md", locator="heading=Project Lotus,para=1")
LOTUS_ZH = evidence("始于2024年第四季度的成本优化项目“Project Lotus”在本财年继续推进。", doc="ACME_FY2025_MDA.docx",
                    locator="heading=日本（ACME_JP）,para=2")
PRICE_JA = evidence("2025年4月、ACME_JPは店頭の棚価格を引き上げました。円安による輸入コストの上昇を販売価格に反映するための措置です。",
                    doc="ACME_JP_2025_Report.md", locator="heading=価格改定,para=1")
HK_ZH = evidence("2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，以及位于广东道的三家门店关闭。")
HK_EN = evidence("FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened.",
                 doc="ACME_FY2024_Review.pptx", locator="slide=3")
JP_ZH = evidence("2024财年，日本毛利率下降2个百分点，原因是日元走弱推高了进口商品的采购成本。",
                 locator="heading=日本（ACME_JP）,para=1")
REGULARS_JA = evidence("価格改定後も来店客の反応はおおむね安定しており、会員向けの施策を通じて常連客の維持に努めています。",
                       doc="ACME_JP_2025_Report.md", locator="heading=店舗と顧客,para=1")
PASSAGES = [LOTUS_JA, LOTUS_ZH, PRICE_JA, HK_ZH, HK_EN, JP_ZH, REGULARS_JA]


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return default_glossary()


def unmet_for(question: str, lang: Lang, reply: str, glossary: Glossary) -> tuple[str, ...]:
    """What the question asks about that none of the passages ``reply`` cites speaks of."""
    cited = cite(reply, PASSAGES)
    return unmet(subject_of(question, lang, glossary), [PASSAGES[i] for i in cited.used], lang, glossary)


class TestAnotherProjectIsNotTheOneAsked:
    @pytest.mark.parametrize(("question", "lang", "reply"), [
        ("What did the board decide about Project Falcon?", Lang.EN,
         "The board decided to continue the Project Lotus cost reduction program. [1]"),
        ("董事会为什么要求对Project Falcon保密？", Lang.ZH, "董事会要求对Project Falcon保密，因为该项目涉及敏感信息。[2]"),
        ("Project Falconの買収対象はどの会社ですか？", Lang.JA, "Project Lotusは、2025年も継続しています。[1]"),
    ])
    def test_a_reply_citing_only_another_projects_passage_leaves_the_asked_one_unmet(
            self, glossary: Glossary, question: str, lang: Lang, reply: str) -> None:
        assert unmet_for(question, lang, reply, glossary) == ("Project Falcon",)

    @pytest.mark.parametrize(("question", "lang", "reply"), [
        ("Why did Japan start Project Lotus, and what does it cover?", Lang.EN,
         "Project Lotus is a cost reduction program that started in 2024 and continues in 2025. [1]"),
        ("日本为什么在2024年第四季度启动Project Lotus？", Lang.ZH, "为应对成本压力，日本启动了Project Lotus。[2]"),
        ("Project Lotusではどのような取り組みが行われていますか？", Lang.JA, "Project Lotusは、2025年も継続しています。[1]"),
    ])
    def test_a_reply_citing_the_asked_projects_passage_is_supported(
            self, glossary: Glossary, question: str, lang: Lang, reply: str) -> None:
        assert unmet_for(question, lang, reply, glossary) == ()


class TestEntitiesAndYears:
    def test_another_regions_passage_does_not_speak_of_the_region_asked(self, glossary: Glossary) -> None:
        reply = "日元走弱推高了进口商品的采购成本[6]。"
        assert unmet_for("香港2024财年为什么营收下降？", Lang.ZH, reply, glossary) == ("ACME_HK",)
        assert unmet_for("日本2024财年毛利率为什么下降？", Lang.ZH, reply, glossary) == ()

    def test_a_passage_naming_no_entity_cannot_tell_and_meets_it(self, glossary: Glossary) -> None:
        reply = "会員向けの施策を通じて常連客の維持に努めています。[7]"
        assert unmet_for("価格改定の後、ACME_JPは常連客をどのように維持していますか？", Lang.JA, reply, glossary) == ()

    def test_passages_naming_only_other_years_do_not_speak_of_the_year_asked(self, glossary: Glossary) -> None:
        reply = "Inbound tourist spending weakened. [5]"
        assert unmet_for("Why did Hong Kong revenue fall in 2026?", Lang.EN, reply, glossary) == ("2026",)
        assert unmet_for("Why did Hong Kong revenue fall in FY2024?", Lang.EN, reply, glossary) == ()

    def test_the_home_group_is_every_passages_subject(self, glossary: Glossary) -> None:
        assert subject_of("集团为什么说各地区表现出现了分化？", Lang.ZH, glossary).entities == frozenset()

    def test_an_answer_citing_nothing_meets_nothing(self, glossary: Glossary) -> None:
        assert unmet(subject_of("What did the board decide about Project Falcon?", Lang.EN, glossary), [], Lang.EN,
                     glossary) == ("Project Falcon",)
        assert unmet(subject_of("Why did the stores close?", Lang.EN, glossary), [], Lang.EN, glossary) == ()


class TestNamesInAnotherScript:
    def test_an_english_name_a_chinese_passage_may_have_translated_is_not_held_against_it(
            self, glossary: Glossary) -> None:
        reply = "Inbound tourist spending weakened, and three Canton Road stores closed [4]."
        assert unmet_for("Why did the Canton Road stores close?", Lang.EN, reply, glossary) == ()

    def test_an_english_passage_that_would_have_written_the_name_and_does_not_leaves_it_unmet(
            self, glossary: Glossary) -> None:
        reply = "Inbound tourist spending weakened [5]."
        assert unmet_for("Why did the Canton Road stores close?", Lang.EN, reply, glossary) == ("Canton Road",)

    @pytest.mark.parametrize(("question", "names"), [
        ("Why did ACME_JP raise its shelf prices in April 2025?", ()),  # a glossary entity and a month
        ("Why did Mainland China's online share grow in FY2025?", ()),
        ("Does Project Falcon involve an acquisition?", ("Project Falcon",)),  # the capital of the sentence is not
        ("董事会为什么要求对Project Falcon保密？", ("Project Falcon",)),
    ])
    def test_names_are_latin_words_the_glossary_does_not_know(self, glossary: Glossary, question: str,
                                                              names: tuple[str, ...]) -> None:
        lang = Lang.EN if question.isascii() else Lang.ZH
        assert subject_of(question, lang, glossary).names == names


# What a model wraps a supported sentence in: structure, never a claim about another subject.
HEADINGS = st.sampled_from(["", "## 原因\n", "**Answer**\n", "### 1.\n", "回答：\n"])
ENUMERATORS = st.sampled_from(["", "1. ", "1) ", "一、", "① ", "- ", "**1.** ", "(1) "])
MARKERS = st.sampled_from(["[{n}]", "【{n}】", "({n})", " [{n}]", "[{n}][{n}]", "（来源：{doc} {locator}）"])
SUPPORTED = [  # (question, lang, the sentence, the passage it comes from)
    ("What did Japan's Project Lotus continue doing in 2025?", Lang.EN, "Project Lotus continued in 2025", LOTUS_JA),
    ("日本为什么启动Project Lotus？", Lang.ZH, "日本的成本优化项目Project Lotus在本财年继续推进", LOTUS_ZH),
    ("2025年に日本の粗利率が回復したのはなぜですか？", Lang.JA, "円安による輸入コストの上昇を販売価格に反映しました", PRICE_JA),
    ("香港2024财年为什么营收下降？", Lang.ZH, "入境旅客消费走弱，广东道的三家门店关闭", HK_ZH),
    ("Why did Hong Kong revenue fall in FY2024?", Lang.EN, "Inbound tourist spending weakened", HK_EN),
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SUPPORTED), HEADINGS, ENUMERATORS, MARKERS, st.sampled_from(["。", ".", ""]),
       st.permutations(PASSAGES))
def test_a_supported_answer_is_never_declined_for_its_structure(  # type: ignore[no-untyped-def]
        case, heading: str, enumerator: str, marker: str, end: str, order: list[Evidence]) -> None:
    question, lang, sentence, passage = case
    n = order.index(passage) + 1
    reply = heading + enumerator + sentence + marker.format(n=n, doc=passage.doc, locator=passage.locator) + end
    cited = cite(reply, order)
    glossary = default_glossary()
    assert passage in [order[i] for i in cited.used]
    assert unmet(subject_of(question, lang, glossary), [order[i] for i in cited.used], lang, glossary) == ()


@pytest.mark.parametrize(("item", "about"), [
    (evidence("中国内地继续优化门店布局。", doc="ACME_FY2025_MDA.docx", locator="heading=中国内地（ACME_CN）,para=2"), True),
    (evidence("調達条件の見直し、店舗オペレーションの効率化が主な取り組みです。", doc="ACME_JP_2025_Report.md",
              locator="heading=Project Lotus,para=1"), False),  # Japan's, named by its document
    (evidence("线下方面，中国内地全年净新增门店34家。", doc="ACME_FY2024_MDA.docx",
              locator="heading=中国内地（ACME_CN）,para=2"), False),  # another year
    (evidence("Store layouts were reviewed.", doc="notes.md", locator="heading=Stores"), True),  # cannot tell
])
def test_a_passage_speaks_of_the_entity_and_year_asked_or_cannot_tell(glossary: Glossary, item: Evidence,
                                                                       about: bool) -> None:
    asked = subject_of("2025年度、中国内地は店舗網をどのように見直しましたか？", Lang.JA, glossary)

    assert speaks_of(asked, item, glossary) is about
