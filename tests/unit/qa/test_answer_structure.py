"""Property tests: an answer's layout is not a claim, and a figure inside a sentence still is.

Passage references ([1], 【2】, (3), ①, 注1, 资料2), list enumerators (1., 1), 一、, ①) and heading
numbers are structure in every language; an invented number after an enumerator or in a
sentence carrying a reference is rejected in every surface form, exactly as without them.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ragspine.numbers import sourced_values
from ragspine.qa.answer_structure import passage_references, strip_structure
from ragspine.qa.provenance import check_provenance
from tests.support.number_forms import spellings

PASSAGES = [
    "2024财年香港营业收入下降7.4%，主要因为入境游客消费疲软，以及广东道三家门店关闭。",
    "FY2024 ACME_HK revenue fell 7.4% because inbound tourist spending weakened; visitors fell by 12,000 a month.",
    "香港では来店客が1,200人減少し、売上総利益率は0.5ポイント低下しました。",
    "香港团队在2025年通过租金重新谈判稳定了经营。",
    "日本的毛利率为36.0%。",
]
SOURCED = sourced_values(PASSAGES)
# Sentences restating the passages' figures (other surface forms included), one per language.
CLAIMS = ["入境游客消费疲软，营业收入下降百分之七点四", "Canton Road closed 3 stores", "来店客が１，２００人減少しました",
          "visitors fell by twelve thousand a month", "香港营收下降7.4%", "毛利率为36.0%"]
CJK_ORDINALS = "一二三四五六七八九十"
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def _reference(ids: list[int]) -> st.SearchStrategy[str]:
    first = ids[0]
    return st.sampled_from([
        f"[{first}]", f"【{first}】", f"({first})", f"（{first}）", f"［{first}］", f"注{first}", f"资料{first}",
        f"資料{first}", f" passage {first}", f"[资料{first}]", "".join(f"[{i}]" for i in ids),
        "[" + ", ".join(map(str, ids)) + "]", "【" + "、".join(map(str, ids)) + "】", CIRCLED[first - 1],
    ])


references = st.lists(st.integers(1, len(PASSAGES)), min_size=1, max_size=3).flatmap(_reference)


@st.composite
def enumerators(draw: st.DrawFn) -> str:
    k = draw(st.integers(1, 10))
    return draw(st.sampled_from([
        f"{k}. ", f"{k}) ", f"{k}、", f"{k}．", f"（{k}）", f"({k}) ", f"{CJK_ORDINALS[k - 1]}、",
        f"（{CJK_ORDINALS[k - 1]}）", CIRCLED[k - 1], f"- {k}. ", f"**{k}.** ", f"## {k}. ", f"### {k}.{k} ",
        f"{k}：", f"第{CJK_ORDINALS[k - 1]}、", f"  {k}. ",
    ]))


@st.composite
def structured_answers(draw: st.DrawFn, claims: st.SearchStrategy[str]) -> str:
    """Lines of enumerator + claim + reference, under an optional numbered heading."""
    lines = []
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["## 1. 原因", "### 2 Causes", "# 3. 要因", "主要原因如下："])))
    for _ in range(draw(st.integers(1, 4))):
        enumerator = draw(enumerators()) if draw(st.booleans()) else ""
        reference = draw(references) if draw(st.booleans()) else ""
        end = draw(st.sampled_from(["。", ".", "；", ""]))
        before_end = draw(st.booleans())
        claim = draw(claims)
        lines.append(f"{enumerator}{claim}{reference}{end}" if before_end else f"{enumerator}{claim}{end}{reference}")
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structured_answers(st.sampled_from(CLAIMS)))
def test_references_enumerators_and_headings_are_structure_not_claims(answer: str) -> None:
    report = check_provenance(answer, evidence_texts=PASSAGES, passages=len(PASSAGES))

    assert report.ok, (answer, report.unsupported)


# {n} is followed by a counter or unit, so a single CJK numeral is a count.
INVENTING = ["香港共关闭了{n}家门店", "Hong Kong closed {n} stores", "営業利益は{n}円増えました", "Revenue fell by {n} points",
             "毛利率下降了{n}个百分点"]
values = st.one_of(
    st.integers(2, 10**6).map(Decimal),
    st.tuples(st.integers(2, 999), st.sampled_from([4, 8])).map(lambda p: Decimal(p[0]) * 10 ** p[1]),
    st.integers(21, 99_999).map(lambda n: Decimal(n) / 10),
)
forms_of = values.flatmap(lambda v: st.tuples(st.just(v), st.sampled_from(sorted(spellings(v).items()))))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forms_of, st.sampled_from(INVENTING), enumerators(), references, st.booleans(),
       structured_answers(st.sampled_from(CLAIMS)))
def test_an_invented_number_after_an_enumerator_or_beside_a_reference_is_still_rejected(
        form: tuple[Decimal, tuple[str, str]], template: str, enumerator: str, reference: str, referenced: bool,
        context: str) -> None:
    value, (_, written) = form
    canonical = format(value.normalize(), "f")
    assume(canonical not in SOURCED)
    line = f"{enumerator}{template.format(n=written)}{reference if referenced else ''}。"

    report = check_provenance(f"{context}\n{line}", evidence_texts=PASSAGES, passages=len(PASSAGES))

    assert not report.ok, line
    plain = check_provenance(template.format(n=written), evidence_texts=PASSAGES)
    assert report.unsupported == plain.unsupported  # the same verdict as the bare sentence


@given(st.integers(len(PASSAGES) + 1, 999), st.sampled_from(["[{n}]", "【{n}】", "({n})", "资料{n}"]))
def test_a_reference_to_a_passage_the_prompt_did_not_give_is_checked_as_a_number(number: int, form: str) -> None:
    assume(str(number) not in SOURCED)
    report = check_provenance(f"收入下降7.4%{form.format(n=number)}。", evidence_texts=PASSAGES,
                              passages=len(PASSAGES))

    assert report.unsupported == (str(number),)


def test_the_real_model_replies_that_were_rejected_now_pass() -> None:
    replies = [
        "香港营业收入下降7.4%，主要因为入境游客消费疲软[1]，以及广东道三家门店关闭[1]。",
        "根据[3]和[4]的资料，来店客が1,200人減少し、团队在2025年重新谈判了租金。",
        "主要原因：\n1. 入境游客消费疲软 [1][2]\n2. 广东道三家门店关闭 [1]\n3. 来店客减少1,200人 [3]",
        "## 1. Causes\n1) Inbound tourist spending weakened (2).\n2) Visitors fell by 12,000 a month (2).",
        "①入境游客消费疲软。②广东道门店关闭（注1）。",
        "一、入境游客消费疲软【1】\n二、门店关闭【1】",
    ]
    for reply in replies:
        assert check_provenance(reply, evidence_texts=PASSAGES, passages=len(PASSAGES)).ok, reply


def test_decimals_and_years_at_a_line_start_stay_claims() -> None:
    assert check_provenance("7.4%的下降来自客流。", evidence_texts=PASSAGES).ok
    assert check_provenance("9.9%的下降来自客流。", evidence_texts=PASSAGES).unsupported == ("9.9",)
    assert check_provenance("2031. 收入下降。", evidence_texts=PASSAGES).unsupported == ("2031",)
    assert "9.9" in strip_structure("1. 9.9%的下降")


def test_references_name_the_passages_they_point_to() -> None:
    found = passage_references("见[1, 3]与【2】，以及资料5和(6)", passages=5)
    assert [r.passages for r in found] == [(1, 3), (2,), (5,)]
