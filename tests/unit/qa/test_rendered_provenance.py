"""The provenance check of a structured answer reads each rendered line once and still catches every number.

``check_rendered`` reads a line the service rendered (a fact with its labels and source, a
computed change, the assumptions) once per process and checks its numbers on every ask. These
properties hold it to the whole-text check (``check_numbers``) on answers rendered from
generated facts, and show that a number nobody gave is rejected wherever it is written, on the
first reading of a line and on a remembered one alike.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.numbers import canonical
from ragspine.qa.difference import change_unit, difference
from ragspine.qa.language import Lang
from ragspine.qa.provenance import check_numbers, check_rendered, figure_values, numbers_in
from ragspine.qa.render import render_assumptions, render_result
from ragspine.qa.slots import Assumption
from ragspine.qa.structured import render_difference
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()
_METRICS = sorted(GLOSSARY.terms[SlotKind.METRIC])
_ENTITIES = sorted(GLOSSARY.terms[SlotKind.ENTITY])
_CHANNELS = sorted(GLOSSARY.terms[SlotKind.CHANNEL])
_PERIODS = st.one_of(st.integers(2015, 2030).map(lambda y: Period.fiscal_year(y)),
                     st.tuples(st.integers(2015, 2030), st.integers(1, 4)).map(lambda p: Period("Q", f"{p[0]}Q{p[1]}")))
_VALUES = st.one_of(st.integers(-10**9, 10**9),
                    st.decimals(-10**6, 10**6, places=2, allow_nan=False, allow_infinity=False).map(float))
_UNITS = st.sampled_from(["USD_M", "PCT", "COUNT", "JPY_M", "USD_K", "", "shares", "x"])
_LOCATORS = st.from_regex(r"(slide|page|sheet)=[0-9]{1,3},(table|cell)=[A-Z0-9]{1,4}(,row=[A-Z_一-龥]{1,8})?",
                          fullmatch=True)


@st.composite
def _results(draw: st.DrawFn) -> QueryResult:
    period = draw(_PERIODS)
    query = MetricQuery(draw(st.sampled_from(_METRICS)), draw(st.sampled_from(_ENTITIES)), period,
                        draw(st.sampled_from(_CHANNELS)))

    def fact() -> Fact:
        return Fact(query.metric_code, query.entity, "XX", query.channel, period.period_type, period.period,
                    draw(_VALUES), draw(_UNITS), draw(st.sampled_from(["ACME_FY2024_Review.pptx", "10-K 2023.pdf"])),
                    draw(_LOCATORS))

    if not draw(st.booleans()):
        return QueryResult(QueryStatus.NOT_FOUND, query)
    return QueryResult(QueryStatus.FOUND, query, fact(), conflicts=tuple(fact() for _ in range(draw(st.integers(0, 2)))))


@st.composite
def _answers(draw: st.DrawFn) -> tuple[list[str], frozenset[str]]:
    """The lines of a structured answer rendered from generated facts, and the values its figures and periods allow."""
    lang = draw(st.sampled_from(list(Lang)))
    results = draw(st.lists(_results(), min_size=1, max_size=4))
    lines = [render_result(r, GLOSSARY, lang) for r in results]
    facts = [f for r in results if r.fact is not None for f in (r.fact, *r.conflicts)]
    shown = [format_number(f.value) for f in facts]
    if len(facts) >= 2 and change_unit(facts[0], facts[1]) is not None and draw(st.booleans()):  # a computed change
        change = difference(facts[0], facts[1])
        lines.append(render_difference(change, GLOSSARY, lang))
        shown += change.numbers
    if draw(st.booleans()):
        lines.append(render_assumptions((Assumption(SlotKind.PERIOD, draw(_PERIODS).label, "default"),), GLOSSARY, lang))
    periods = [r.query.period.label for r in results if r.query is not None]
    allowed = frozenset().union(*map(figure_values, shown), *map(numbers_in, periods))
    return lines, allowed


@settings(max_examples=300, deadline=None)
@given(_answers(), st.sampled_from([frozenset(), frozenset({"2024", "3"})]))
def test_each_line_read_on_its_own_gives_the_verdict_of_the_whole_answer(
        answer: tuple[list[str], frozenset[str]], asked: frozenset[str]) -> None:
    lines, allowed = answer
    text = "\n".join(lines)
    expected = check_numbers(text, allowed=allowed, also_allowed=lambda: asked)
    assert check_rendered(text, allowed=allowed, also_allowed=lambda: asked) == expected
    assert check_rendered(text, allowed=allowed, also_allowed=lambda: asked) == expected  # the lines remembered


@settings(max_examples=300, deadline=None)
@given(_answers(), st.integers(10**4, 10**12), st.data())
def test_a_number_no_fact_or_question_gives_is_rejected_in_any_line(
        answer: tuple[list[str], frozenset[str]], invented: int, data: st.DataObject) -> None:
    lines, allowed = answer
    assume(canonical(Decimal(invented)) not in allowed)
    text = "\n".join(lines)
    check_rendered(text, allowed=allowed)  # every genuine line read and remembered first
    # GIVEN the same answer with a number nobody gave written into one of its lines, outside its citations
    at = data.draw(st.integers(0, len(lines) - 1))
    line = lines[at]
    claims_end = min((i for i in (line.find("（来源"), line.find("（计算自")) if i >= 0), default=len(line))
    cut = data.draw(st.integers(0, claims_end))
    forged = [*lines[:at], f"{line[:cut]} {invented} {line[cut:]}", *lines[at + 1:]]
    # WHEN it is checked, THEN that number is reported, as the whole-text check reports it
    report = check_rendered("\n".join(forged), allowed=allowed, also_allowed=lambda: frozenset({"2024"}))
    assert canonical(Decimal(invented)) in report.unsupported
    assert report == check_numbers("\n".join(forged), allowed=allowed, also_allowed=lambda: frozenset({"2024"}))


_BRACKETED_WORDS = st.text(alphabet="abcdefghij /-’", min_size=1, max_size=12)


@st.composite
def _nested_labels(draw: st.DrawFn) -> str:
    """A row label whose remark nests brackets one to four deep: ``Carrying amount (non-current (liabilities)/assets)``."""
    label = draw(_BRACKETED_WORDS)
    for _ in range(draw(st.integers(1, 4))):
        label = f"{draw(_BRACKETED_WORDS)} ({label}){draw(_BRACKETED_WORDS)}"
    return label


def test_a_citation_whose_row_label_nests_brackets_two_deep_claims_no_number() -> None:
    line = ("Example Group FY2019 interest rate swaps: carrying amount (non-current (liabilities)/assets): -494 CNY_M"
            "（来源：tatqa_264.md · table=1,row=Interest rate swaps: Carrying amount (non-current (liabilities)/assets),"
            "col=2019/RMB’Million）")
    allowed = figure_values("-494") | numbers_in("FY2019")
    assert check_rendered(line, allowed=allowed).ok
    assert check_numbers(line, allowed=allowed).ok


@settings(max_examples=80, deadline=None)
@given(label=_nested_labels(), invented=st.integers(100, 10**6), after=st.booleans(), source=st.sampled_from(["来源", "source", "出典"]))
def test_a_number_beside_a_citation_with_nested_brackets_is_still_checked(
        label: str, invented: int, after: bool, source: str) -> None:
    citation = f"（{source}：report.md · table=1,row={label},col=2019）"
    figure = f"Revenue: {invented + 1} USD_M"
    line = f"{figure}{citation} {invented}" if after else f"{invented} {figure}{citation}"
    report = check_rendered(line, allowed=figure_values(str(invented + 1)))
    assert report.unsupported == (str(invented),)
    assert check_numbers(line, allowed=figure_values(str(invented + 1))).unsupported == (str(invented),)


@settings(max_examples=60, deadline=None)
@given(label=_nested_labels(), invented=st.integers(100, 10**6))
def test_a_citation_never_closed_hides_no_number_after_it(label: str, invented: int) -> None:
    line = f"Revenue: 7 USD_M（来源：report.md · row={label} {invented}"
    assert str(invented) in check_numbers(line, allowed=figure_values("7")).unsupported
