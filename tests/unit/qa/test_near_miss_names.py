"""Misspelt metric and entity names read by a bounded fuzzy match, said in the answer, or asked
back when two names are equally near."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.qa.answer import answer_question
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.result import AnswerStatus, Route
from ragspine.qa.screening import ScreeningPolicy
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.unit.facts.test_fact_model import make_fact

HK_MARGIN = make_fact(metric_code="GROSS_MARGIN", entity="ACME_HK", geography="HK", period="2025", value=41.5,
                      unit="PCT", source_doc_id="ACME_FY2025_Review.pptx",
                      source_locator="slide=3,table=1,row=GROSS_MARGIN,col=FY2025")
GLOSSARY = default_glossary()
QA = make_qa(InMemoryFactStore([HK_MARGIN, make_fact()]))


def test_a_misspelt_metric_is_read_and_the_assumption_is_stated() -> None:
    result = answer_question("gross margn of hong kong 2025", qa=QA)
    assert (result.route, result.status) == (Route.STRUCTURED, AnswerStatus.FOUND)
    assert "41.5 PCT" in result.answer and "(Assumed: read 'gross margn' as gross margin (GROSS_MARGIN).)" in result.answer
    assert result.sources == ({"doc": "ACME_FY2025_Review.pptx",
                               "locator": "slide=3,table=1,row=GROSS_MARGIN,col=FY2025"},)
    assert [(a.slot, a.value, a.reason) for a in result.slots.assumptions] == [
        (SlotKind.METRIC, "GROSS_MARGIN", "read 'gross margn' as gross margin (GROSS_MARGIN)")]


@pytest.mark.parametrize(("question", "said"), [
    ("What was Mainland Chna revenue in FY2024?", "(Assumed: read 'mainland chna' as Mainland China (ACME_CN).)"),
    ("中国内地2024年的revenu是多少？", "（假设：将“revenu”理解为营业收入（REVENUE）。）"),
    ("中国内地2024年のrevnueはいくら？", "（前提：「revnue」を売上高（REVENUE）と解釈。）"),
])
def test_misspelt_entities_and_metrics_in_each_language(question: str, said: str) -> None:
    result = answer_question(question, qa=QA)
    assert (result.route, result.status) == (Route.STRUCTURED, AnswerStatus.FOUND)
    assert "1320 USD_M" in result.answer and said in result.answer


@pytest.mark.parametrize("question", [
    "What was the net difference in sale of systems between 2017 and 2019?",  # "sale" is not "sales"
    "What was the number of shares of Japan in 2024?",  # "shares" is two edits from "stores"
    "gross margn 2025",  # nothing well spelt beside it: not read
    "香港2025年的经营利闰",  # CJK names are never fuzzed
])
def test_words_outside_the_bounds_are_not_read_as_names(question: str) -> None:
    result = answer_question(question, qa=QA)
    assert result.route is not Route.STRUCTURED
    assert not [a for a in result.slots.assumptions if a.typed is not None]


def test_two_equally_near_names_are_asked_back() -> None:
    raw = yaml.safe_load(Path(GLOSSARY_FILE).read_text(encoding="utf-8"))
    raw["entities"]["ACME_CL"] = {"geography": "CL", "parent": "ACME_GROUP", "level": "region",
                                  "names": {"zh": "智利", "en": "Chile", "ja": "チリ"}, "aliases": ["chile"]}
    glossary = Glossary.from_mapping(raw)
    qa = replace(QA, glossary=glossary, screening=ScreeningPolicy.default(glossary=glossary),
                 intent=RuleIntentParser.from_file(glossary))
    result = answer_question("What was chine revenue in FY2024?", qa=qa)
    assert (result.route, result.status) == (Route.CLARIFICATION, AnswerStatus.NEEDS_CLARIFICATION)
    assert result.clarification is not None
    assert result.clarification.question == "Which did you mean by 'chine'? Choose one: china, chile"
    assert [(o.label, o.question, o.slot, o.value) for o in result.clarification.options] == [
        ("china", "what was china revenue in fy2024?", "entity", "ACME_CN"),
        ("chile", "what was chile revenue in fy2024?", "entity", "ACME_CL")]
    assert result.sources == ()


GLOSSARY_FILE = Path(__file__).parents[3] / "shared" / "ragspine" / "shipped_domains" / "acme" / "glossary.yaml"
_NAMES = sorted({(kind, code, term.names["en"].lower())
                 for kind in (SlotKind.METRIC, SlotKind.ENTITY)
                 for code, term in GLOSSARY.terms[kind].items()
                 if sum(c.isalpha() for c in term.names["en"]) >= 5})
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@st.composite
def one_letter_typo(draw: st.DrawFn) -> tuple[SlotKind, str, str]:
    kind, code, name = draw(st.sampled_from(_NAMES))
    at = draw(st.sampled_from([i for i, c in enumerate(name) if c.isalpha()]))
    letter = draw(st.sampled_from(_LETTERS))
    edits = [name[:at] + name[at + 1:], name[:at] + letter + name[at + 1:], name[:at] + letter + name[at:]]
    if at + 1 < len(name) and name[at + 1].isalpha():
        edits.append(name[:at] + name[at + 1] + name[at] + name[at + 2:])
    typo = draw(st.sampled_from(edits))
    assume(typo != name and " " not in (typo[0], typo[-1]) and "  " not in typo)
    return kind, code, typo


@settings(max_examples=60, deadline=None)
@given(one_letter_typo())
def test_a_one_letter_typo_of_a_glossary_name_is_read_as_it(case: tuple[SlotKind, str, str]) -> None:
    kind, code, typo = case
    question = f"{typo} of hong kong 2025" if kind is SlotKind.METRIC else f"revenue of {typo} in 2024"
    result = answer_question(question, qa=QA)
    named = result.slots.metrics if kind is SlotKind.METRIC else result.slots.entities
    assert result.route is Route.STRUCTURED and code in named
    if not GLOSSARY.scan(typo):  # no exact alias inside the typo: the reading must be said
        [said] = [a for a in result.slots.assumptions if a.typed == typo]
        assert (said.slot, said.value) == (kind, code)
        assert said.reason.startswith(f"read '{typo}' as ") and said.reason.endswith(f" ({code})")


_LATIN_ALIASES = [a for a in GLOSSARY.aliases if a.isascii()]


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=_LETTERS, min_size=4, max_size=12))
def test_an_unrelated_word_is_never_read_as_a_name(word: str) -> None:
    assume(all(Levenshtein.distance(word, alias) >= 3 for alias in _LATIN_ALIASES))
    assume(word not in GLOSSARY.fillers)
    result = answer_question(f"{word} of hong kong 2025", qa=QA)
    assert not result.slots.metrics and not [a for a in result.slots.assumptions if a.typed is not None]


def test_a_glossary_with_other_names_is_read_with_its_own_names() -> None:
    """The fuzzy targets are kept per alias table: a second glossary in the process never sees the first's."""
    from ragspine.qa.near_miss import near_misses

    raw = yaml.safe_load(Path(GLOSSARY_FILE).read_text(encoding="utf-8"))
    raw["entities"]["ACME_CL"] = {"geography": "CL", "parent": "ACME_GROUP", "level": "region",
                                  "names": {"zh": "智利", "en": "Chile", "ja": "チリ"}, "aliases": ["chilean market"]}
    other = Glossary.from_mapping(raw)
    question = "revenue of the chilaen market"
    assert near_misses(question, question, GLOSSARY, [SlotKind.ENTITY]) == []
    [miss] = near_misses(question, question, other, [SlotKind.ENTITY])
    assert (miss.raw, [(r.code, r.name) for r in miss.readings]) == ("chilaen market",
                                                                      [("ACME_CL", "chilean market")])
    assert near_misses(question, question, GLOSSARY, [SlotKind.ENTITY]) == []


@pytest.mark.parametrize(("typed", "read"), [
    ("gross margn of japan", "gross margn"), ("gross  margn of japan", "gross  margn"),
    ("gross\tmargn of japan", "gross\tmargn"),
    ("gross, margn of japan", None), ("gross' margn of japan", None), ("gross- margn of japan", None),
])
def test_only_words_with_nothing_but_spaces_between_are_read_as_one_name(typed: str, read: str | None) -> None:
    from ragspine.qa.near_miss import near_misses

    misses = near_misses(typed, typed, GLOSSARY, [SlotKind.METRIC])
    assert [(m.raw, [r.code for r in m.readings]) for m in misses] == ([(read, ["GROSS_MARGIN"])] if read else [])


def test_a_mention_between_two_words_keeps_them_apart() -> None:
    from ragspine.qa.near_miss import near_misses

    typed = "gross japan margn"
    assert near_misses(typed, "gross       margn", GLOSSARY, [SlotKind.METRIC]) == []
