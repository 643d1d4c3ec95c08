"""Which retrieved passages the model reads: each text once, nothing said lost, the best-ranked copy shown."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.ports import Evidence
from ragspine.qa.shown_passages import shown_and_repeats, shown_text
from tests.fakes.narrative import evidence

SENTENCES = ["香港营业收入下降7.4%。", "香港团队把重心转向本地常客。", "Gross margin improved.", "日元走弱。",
             "Project Lotus continued."]


def _passage(i: int, parts: list[int], with_context: bool, place: int) -> Evidence:
    text = " ".join(SENTENCES[p] for p in parts)
    item = evidence(SENTENCES[parts[0]], doc=f"doc{place % 3}.docx", locator=f"heading=s,para={place}",
                    chunk_id=f"c{i}")
    return replace(item, context=text) if with_context else replace(item, text=text)


passages = st.lists(
    st.tuples(st.lists(st.integers(0, len(SENTENCES) - 1), min_size=1, max_size=3), st.booleans(), st.integers(0, 4)),
    max_size=8,
).map(lambda drawn: [_passage(i, parts, ctx, place) for i, (parts, ctx, place) in enumerate(drawn)])


def _squeezed(item: Evidence) -> str:
    return "".join(shown_text(item).split())


@given(passages)
def test_no_text_is_shown_twice_nor_inside_an_earlier_one(retrieved: list[Evidence]) -> None:
    shown, _ = shown_and_repeats(retrieved)
    for i, item in enumerate(shown):
        assert not any(_squeezed(item) in _squeezed(earlier) for earlier in shown[:i])


@given(passages)
def test_every_retrieved_text_is_still_read_and_the_ranking_kept(retrieved: list[Evidence]) -> None:
    shown, repeats = shown_and_repeats(retrieved)
    assert all(any(_squeezed(item) in _squeezed(kept) for kept in shown) for item in retrieved)
    assert [e for e in retrieved if e in shown] == shown  # best first, the first copy
    assert [e for e in retrieved if e in repeats] == repeats


@given(passages)
def test_a_repeat_is_another_place_than_every_passage_before_it(retrieved: list[Evidence]) -> None:
    _, repeats = shown_and_repeats(retrieved)
    for item in repeats:
        before = retrieved[:retrieved.index(item)]
        assert (item.doc, item.locator) not in {(e.doc, e.locator) for e in before}


def test_two_paragraphs_of_one_section_show_the_section_once_under_the_better_ranked() -> None:
    section = "2024财年香港营业收入下降7.4%。 香港团队把重心转向本地常客。"
    first = replace(evidence("香港团队把重心转向本地常客。", locator="heading=香港（ACME_HK）,para=2"), context=section)
    second = replace(evidence("2024财年香港营业收入下降7.4%。", locator="heading=香港（ACME_HK）,para=1"), context=section)
    slide = evidence("Gross margin improved.", doc="ACME_FY2025_Review.pptx", locator="slide=7")

    assert shown_and_repeats([first, slide, second, slide]) == ([first, slide], [second])


def test_whitespace_alone_does_not_make_a_passage_new() -> None:
    one = evidence("香港营业收入下降7.4%。 香港团队把重心转向本地常客。", locator="heading=a,para=1")
    other = evidence("香港营业收入下降7.4%。\n香港团队把重心转向本地常客。", locator="heading=b,para=1")

    assert shown_and_repeats([one, other]) == ([one], [other])
