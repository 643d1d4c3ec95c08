"""FAQ matching by meaning: the embedder scores a question against every FAQ entry.

An entry's score is the mean of two cosines: the closest of its stored question variants
(query against query) and its answer (query against passage, what e5 is trained for; the
answer names the topic, "millions of US dollars", when a paraphrase shares few words with
the stored question). multilingual-e5-small puts unrelated questions of one domain close
together (cosines of 0.75-0.9), so a hit needs both an absolute score and a lead over the
runner-up entry. Both were chosen on the tuning half of ``tests/eval/faq_paraphrases.yaml``
with false hits counted as worse than misses; docs/evaluation.md gives the held-out measurement.

The company's own name is taken out of every text before embedding (``ignore``): in a single
company's assistant it says nothing, yet it pulled "What currency are ACME's figures reported
in?" towards the stored "How is ACME's fiscal year defined?" rather than "What currency and
unit are the financial figures in?".

The entries are embedded once, on the first question that needs them; a question is
embedded only when it gets here (the exact and fuzzy matches did not decide).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.ports import Embedder

DEFAULT_SEMANTIC_THRESHOLD = 0.86
DEFAULT_SEMANTIC_MARGIN = 0.02
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SemanticScore:
    """The best entry for a question (its index among the entries) and its score."""

    entry: int
    score: float


class SemanticFaqMatcher:
    """Scores questions against FAQ entries with a query and a passage embedder."""

    def __init__(self, questions: Sequence[Sequence[str]], answers: Sequence[str], *, query: Embedder,
                 passage: Embedder, threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
                 margin: float = DEFAULT_SEMANTIC_MARGIN, ignore: Sequence[str] = ()) -> None:
        """Describe the matcher; nothing is embedded yet.

        Args:
            questions: each entry's stored question variants.
            answers: each entry's answer, in the same order.
            query: embeds questions (e5 ``query:``).
            passage: embeds answers (e5 ``passage:``).
            threshold: the lowest score that counts as a hit.
            margin: how far the best entry must lead the runner-up.
            ignore: names removed from every text before embedding (the company's).
        """
        words = sorted({w.lower() for w in ignore if w.strip()}, key=len, reverse=True)
        self._ignore = (re.compile("|".join(rf"(?<![a-z]){re.escape(w)}(?:'s|’s)?(?![a-z])" for w in words),
                                   re.IGNORECASE) if words else None)
        self._questions = [[self._plain(q) for q in qs] for qs in questions]
        self._answers = [self._plain(a) for a in answers]
        self._query = query
        self._passage = passage
        self.threshold = threshold
        self.margin = margin
        self._lock = threading.Lock()
        self._vectors: tuple[list[list[list[float]]], list[list[float]]] | None = None

    def best(self, question: str) -> SemanticScore | None:
        """The entry this question asks by meaning, or None (no clear winner, or no embedder).

        An embedder failure is logged and answered with None: the FAQ is a shortcut, and
        the question still goes on to its channel.
        """
        try:
            variants, answers = self._entry_vectors()
            (vector,) = self._query.embed([self._plain(question)])
        except ProviderUnavailableError as exc:
            logger.warning("FAQ embedder unavailable", extra={"error_code": exc.code})
            return None
        scores = sorted(((_mean(max(_dot(vector, v) for v in own), _dot(vector, answer)), index)
                         for index, (own, answer) in enumerate(zip(variants, answers, strict=True))),
                        reverse=True)
        if not scores:
            return None
        (top, entry), runner_up = scores[0], scores[1][0] if len(scores) > 1 else -1.0
        if top < self.threshold or top - runner_up < self.margin:
            return None
        return SemanticScore(entry, top)

    def _plain(self, text: str) -> str:
        return " ".join(self._ignore.sub(" ", text).split()) if self._ignore else text

    def _entry_vectors(self) -> tuple[list[list[list[float]]], list[list[float]]]:
        with self._lock:  # one embedding of the entries per process, however many threads ask
            if self._vectors is None:
                flat = self._query.embed([q for qs in self._questions for q in qs])
                variants, start = [], 0
                for qs in self._questions:
                    variants.append(flat[start:start + len(qs)])
                    start += len(qs)
                self._vectors = (variants, self._passage.embed(self._answers))
            return self._vectors


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))  # unit vectors: the cosine


def _mean(a: float, b: float) -> float:
    return (a + b) / 2
