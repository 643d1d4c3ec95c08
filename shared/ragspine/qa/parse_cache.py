"""A question's parse (what its text alone decides), and the parse cache that keeps it.

Everything ``answer_question`` decides before it touches a fact depends only on the question
text, the day (assumed periods are relative to it) and the configuration wired into
``QAComponents``: the screening verdict, the intent, the reply language, the clarify decision
and the FAQ hit. That is the parse. It is a pure function of those inputs, so a repeated
question may reuse it. Facts are read from the store on every ask; the structured answer
rendered from them (``Rendered``) is reused only while the store returns equal facts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from ragspine.facts.query_metric import QueryResult
from ragspine.qa.clarify import AskBack, ScopeDecision
from ragspine.qa.intent_model import Intent
from ragspine.qa.language import Lang
from ragspine.qa.provenance import figure_values, numbers_in
from ragspine.qa.result import AnswerResult
from ragspine.qa.structured import Lookup
from ragspine.qa.structured_asks import StructuredAsks

if TYPE_CHECKING:
    from ragspine.qa.faq_hit import FaqHit
    from ragspine.qa.refusal import Refusal

DEFAULT_PARSE_CACHE_SIZE = 1024

ParseKey = tuple[str, date]


@dataclass(slots=True)
class ParsedQuestion:
    """What a question's text decides: refused, asked back, a FAQ hit, or slots to look up.

    Treated as immutable (``planned`` returns a copy) but not declared frozen: a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, which costs
    every first-seen question about 0.7 µs.

    ``question_numbers`` are the numbers the question itself, its periods and its assumed
    values account for: the part of a structured answer's provenance evidence that does not
    come from facts. ``plan`` lists the lookups of a question bound for the structured channel.
    Both are filled in only when the shape is first reused (``planned``): a question asked once
    pays nothing for them beyond what answering it costs anyway. ``asks`` (what a structured
    question asks beyond its lookups, ``qa/structured_asks.py``) is kept on the same first reuse,
    and so is ``writes_no_date``: True when the question's text holds no month a date or a table's
    own dates could be read from, so a repeated question is not searched for one again (None:
    not yet looked at).
    """

    question_sha256: str
    lang: Lang
    refusal: Refusal | None = None
    intent: Intent | None = None
    decision: ScopeDecision | None = None
    faq: FaqHit | None = None
    question_numbers: frozenset[str] = frozenset()
    plan: tuple[Lookup, ...] | None = None
    asks: StructuredAsks | None = None
    rendered: Rendered | None = None
    writes_no_date: bool | None = None

    @property
    def stages(self) -> tuple[str, ...]:
        """The trace stages that ran to reach this shape."""
        if self.refusal is not None:
            return ("screening",)
        if isinstance(self.decision, AskBack):
            return ("screening", "intent_clarify")
        return ("screening", "intent_clarify", "faq")

    def parsed(self) -> tuple[Intent, ScopeDecision]:
        """The intent and clarify decision of a question that passed screening.

        Raises:
            ValueError: the question was refused, so it was never parsed.
        """
        if self.intent is None or self.decision is None:
            raise ValueError("a refused question has no intent")
        return self.intent, self.decision

    def planned(self, plan: tuple[Lookup, ...], question_numbers: frozenset[str]) -> ParsedQuestion:
        """This shape with the lookup plan and question numbers of its structured answer."""
        return replace(self, question_numbers=question_numbers, plan=plan)

    def with_asks(self, asks: StructuredAsks) -> ParsedQuestion:
        """This shape with what its structured question asks beyond its lookups."""
        return replace(self, asks=asks)

    def with_date_verdict(self, writes_no_date: bool) -> ParsedQuestion:
        """This shape with whether its question's text writes no date."""
        return replace(self, writes_no_date=writes_no_date)

    def with_rendered(self, rendered: Rendered) -> ParsedQuestion:
        """This shape with the structured answer last rendered for it."""
        return replace(self, rendered=rendered)


@dataclass(frozen=True, slots=True)
class Rendered:
    """A structured answer (without its trace) and the lookups it was rendered from.

    Rendering and the provenance check are pure functions of the shape and the lookups, so
    when the store returns equal lookups (same facts, values and lineage) the answer is the
    same and may be reused; any change to a fact makes them unequal and the answer is rebuilt.
    """

    results: tuple[QueryResult, ...]
    result: AnswerResult
    verdict: str  # the provenance decision recorded in the trace


def implied_numbers(decision: ScopeDecision) -> frozenset[str]:
    """The part of ``question_numbers`` the question implied (its periods, its assumed values), without its text.

    A line break ends a number as the end of a text does, so each of these is read on its own,
    once per process (``figure_values``): an answer whose numbers they account for (the year of
    "2024Q3") never reads the question's own numbers.
    """
    slots = decision.slots
    return frozenset().union(*map(figure_values, [*[p.label for p in slots.periods],
                                                   *[a.value for a in slots.assumptions]]))


def question_numbers(text: str, decision: ScopeDecision) -> frozenset[str]:
    """Numbers a structured answer may show because the question (or what it implied) holds them."""
    slots = decision.slots
    # One pass over the joined texts: a line break ends a number just as the end of a text does.
    return frozenset(numbers_in("\n".join([text, *[p.label for p in slots.periods],
                                           *[a.value for a in slots.assumptions]])))


class ParseCache:
    """A bounded LRU of parsed questions keyed by (question text, day), safe across threads.

    One cache belongs to one ``QAComponents``: its glossary, policies and parsers are fixed for
    the cache's lifetime, so a new configuration means a new, empty cache. ``maxsize=0`` turns
    caching off. Reads take no lock (single ``OrderedDict`` operations are atomic under the
    GIL); writes do, so eviction keeps the size bound. ``hits``/``misses`` are statistics.
    """

    def __init__(self, maxsize: int = DEFAULT_PARSE_CACHE_SIZE) -> None:
        if maxsize < 0:
            raise ValueError(f"parse cache size must be >= 0, got {maxsize}")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._shapes: OrderedDict[ParseKey, ParsedQuestion] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: ParseKey) -> ParsedQuestion | None:
        """The cached shape, marked most recently used, or None."""
        shape = self._shapes.get(key)
        if shape is None:
            self.misses += 1
            return None
        self.hits += 1
        try:  # not contextlib.suppress: a context manager costs every hit about half a microsecond
            self._shapes.move_to_end(key)
        except KeyError:  # evicted by another thread meanwhile: the shape is still right to use
            return shape
        return shape

    def peek(self, key: ParseKey) -> ParsedQuestion | None:
        """The cached shape, without counting a hit or a miss or marking it used (``get`` does both)."""
        return self._shapes.get(key)

    def put(self, key: ParseKey, shape: ParsedQuestion) -> None:
        """Remember a shape, evicting the least recently used ones beyond ``maxsize``."""
        if self.maxsize == 0:
            return
        with self._lock:
            self._shapes[key] = shape
            while len(self._shapes) > self.maxsize:
                self._shapes.popitem(last=False)

    def clear(self) -> None:
        """Forget every shape (the counters are kept)."""
        with self._lock:
            self._shapes.clear()

    def __len__(self) -> int:
        return len(self._shapes)
