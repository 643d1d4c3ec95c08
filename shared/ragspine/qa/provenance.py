"""The final provenance check: every number in an answer must have a source (seed 002).

Allowed numbers come from found facts, differences computed from found facts, the cited
snippets, and the question itself (periods the user named). Citations (``（来源：…）`` and
``（计算自：…）``) are stripped first: locators such as ``slide=2`` are addresses, not claims.
Numbers are read by ``ragspine.numbers`` on both sides, in any script and surface form, and
compared as canonical values: a passage saying 三家门店 allows "3 stores", 12,000 allows 1.2万.
The answer's layout is not a claim either: list enumerators, heading numbers and references to
the prompt's passages are blanked before reading (qa/answer_structure.py); the rest of each line is checked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass

from ragspine.numbers import NumberMention, normalise, read_numbers, sourced_values
from ragspine.qa.answer_structure import strip_circled, strip_structure
from ragspine.qa.citation_spans import citations


@dataclass(frozen=True, slots=True)
class ProvenanceReport:
    """Numbers in an answer that no evidence accounts for (empty when the answer is clean)."""

    unsupported: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every number has a source."""
        return not self.unsupported


_CLEAN = ProvenanceReport(())  # every number sourced: one report for all such answers


def numbers_in(text: str) -> frozenset[str]:
    """The canonical values ``text`` accounts for as evidence (1,320.0 -> 1320; 1.2万 -> 12000 and 1.2)."""
    return frozenset(sourced_values([text]))


@functools.lru_cache(maxsize=4096)
def figure_values(figure: str) -> frozenset[str]:
    """``numbers_in`` of one short figure the service rendered itself (a fact's value, a computed difference).

    The same facts are shown to many questions, so each figure is read once per process rather
    than once per answer; the bound keeps the memory small (figures are a few characters each).
    """
    return numbers_in(figure)


@functools.lru_cache(maxsize=4096)
def line_claims(line: str) -> tuple[NumberMention, ...]:
    """The numbers one line the service rendered claims (citation and layout blanked), read once per process.

    A structured answer is made of lines that each end with their own citation or sentence
    (a fact's value, its labels and its source; a note; the assumptions), so a line break ends
    every number there as a text end does. The same fact renders the same line for every
    question that asks it, so the line is read once and its claims are checked on every ask.
    """
    return tuple(read_numbers(claims_text(line)))


def check_rendered(answer: str, *, allowed: Set[str],
                   also_allowed: Callable[[], Set[str]] | None = None) -> ProvenanceReport:
    """``check_numbers`` of a structured answer, its lines read on their own (see ``line_claims``).

    Every number of every line is still compared with the allowed values on each ask: a number
    no fact, computation or question gives is reported exactly as the whole-text check reports it.
    """
    return _report([claim for line in answer.split("\n") for claim in line_claims(line)], allowed, also_allowed)


def check_provenance(answer: str, *, evidence_texts: Iterable[str], passages: int = 0) -> ProvenanceReport:
    """Compare the answer's numbers with the numbers the evidence contains.

    ``passages`` is how many numbered passages the prompt gave: references to them are structure.
    """
    return check_numbers(answer, allowed=sourced_values(evidence_texts), passages=passages)


def claims_text(answer: str, *, passages: int = 0) -> str:
    """The NFKC text whose numbers are claims: citations, enumerators, headings and passage references blanked."""
    return strip_structure(_without_citations(normalise(strip_circled(answer))), passages=passages)


def _without_citations(text: str) -> str:
    """``text`` with each citation blanked (one left unclosed is kept: its numbers are claims)."""
    kept: list[str] = []
    cursor = 0
    for citation in citations(text):
        kept.extend((text[cursor:citation.start], " "))
        cursor = citation.end
    kept.append(text[cursor:])
    return "".join(kept)


def check_numbers(answer: str, *, allowed: Set[str], passages: int = 0,
                  also_allowed: Callable[[], Set[str]] | None = None) -> ProvenanceReport:
    """Compare the answer's numbers (citations and layout stripped) with canonical values known to be sourced.

    A number is supported when one of its readings is allowed; the report names the others
    by their canonical value (480億 -> "48000000000"). ``also_allowed`` gives more allowed
    values, read only when a number is not in ``allowed`` (the question's own numbers, which
    most structured answers never need).
    """
    return _report(read_numbers(claims_text(answer, passages=passages)), allowed, also_allowed)


def _report(claims: Sequence[NumberMention], allowed: Set[str],
            also_allowed: Callable[[], Set[str]] | None) -> ProvenanceReport:
    """The claims no allowed value reads, the question's own values (``also_allowed``) asked only when needed."""
    missing = [m for m in claims if not m.readings & allowed]
    if missing and also_allowed is not None:
        more = also_allowed()
        missing = [m for m in missing if not m.readings & more]
    return ProvenanceReport(tuple(dict.fromkeys(m.value for m in missing))) if missing else _CLEAN
