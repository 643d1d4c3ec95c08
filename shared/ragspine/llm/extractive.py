"""``ExtractiveProvider``: the offline default LLM, which answers only by quoting cited snippets.

The Q&A layer builds the user message with ``build_user_message`` (or its parts), so the
format below is the contract between the two; the provider parses it back::

    问题：<the question, on one line>

    参考资料：
    [1] <snippet text, on one line>（来源：<doc> <locator>）
    [2] ...

The header is a line of its own; every snippet line is ``[n] `` + text + the citation. The
provider picks the sentences that share the most tokens with the question (CJK bigrams,
Latin words and numbers; rarer tokens weigh more), from the snippets of the year and entity the
question names when any states them, quotes them verbatim, each followed by its snippet's citation,
and prints no snippet numbers (they are not evidence). No overlap beyond a particle's bigram (件の)
gives the no-evidence answer. It is pure and deterministic: no network, no clock, no randomness.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.abbreviations import NO_ABBREVIATION_AT
from ragspine.citation import CITATION_CLOSE, CITATION_OPEN, passage_citation
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.llm.ports import Role
from ragspine.numbers.years import years
from ragspine.text import Tokenizer

if TYPE_CHECKING:
    from ragspine.llm import chat, cited_snippet
    from ragspine.llm.chat import Completion, Message
    from ragspine.llm.cited_snippet import CitedSnippet
else:
    # Loaded when the provider is first asked: building it (as every process does) needs no snippet or reply.
    cited_snippet = LazyModule("ragspine.llm.cited_snippet")
    chat = LazyModule("ragspine.llm.chat")

SNIPPET_HEADER = "参考资料："
QUESTION_LABEL = "问题："

INTROS = MappingProxyType({"zh": "根据检索到的资料：", "en": "According to the retrieved documents:",
                           "ja": "検索された資料によると："})
NO_EVIDENCE = MappingProxyType({
    "zh": "检索到的资料中没有与该问题相关的内容，无法据此回答。",
    "en": "None of the retrieved documents addresses this question, so it cannot be answered from them.",
    "ja": "検索された資料には、この質問に関係する内容がありませんでした。",
})

_SNIPPET_LINE = LazyPattern(rf"^\[(\d+)\] (.*){CITATION_OPEN}(.+){CITATION_CLOSE}$")
# A sentence ends after 。！？!? or after a period followed by a space, so "7.4%" stays whole
# (and "Co., Ltd. designs" too: an abbreviation's period ends nothing).
_SENTENCE_END = LazyPattern(rf"(?<=[。！？!?])|(?<=\.){NO_ABBREVIATION_AT}(?=\s)")
_HIRAGANA = "\u3040-\u309f"
_KANA = "\u3040-\u30ff"
_CJK = f"\u3005-\u3007{_KANA}\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PARTICLE = LazyPattern(f"[{_HIRAGANA}]")
# Question words that would match any text: they carry the asking, not the subject.
_STOP = frozenset({
    "什么", "为什", "多少", "怎么", "如何", "哪些", "是否", "请问", "原因",
    "a", "an", "and", "are", "at", "by", "did", "do", "does", "for", "from", "how", "in", "is", "it",
    "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "what", "when", "which",
    "who", "why", "with",
})


def format_citation(doc: str, locator: str) -> str:
    """The citation appended to a snippet or quoted sentence: ``（来源：{doc} {locator}）``."""
    return passage_citation(_one_line(doc), _one_line(locator))


def format_snippet_block(snippets: Sequence[tuple[str, str, str]], numbers: Sequence[int] | None = None) -> str:
    """Render ``(text, doc, locator)`` triples as the numbered snippet block under ``参考资料：``.

    Each text is folded onto one line, and a ``（来源：`` inside it is defused, so a document
    can neither forge a snippet line nor a citation.

    Args:
        snippets: the evidence in rank order, each as (text, doc, locator).
        numbers: each snippet's number (a few passages shown again keep the numbers they had); 1, 2, … without.

    Returns:
        The header line followed by one ``[n] text（来源：doc locator）`` line per snippet.
    """
    lines = [SNIPPET_HEADER]
    for number, (text, doc, locator) in zip(numbers or range(1, len(snippets) + 1), snippets, strict=True):
        safe = _one_line(text).replace(CITATION_OPEN, "（")
        lines.append(f"[{number}] {safe}{format_citation(doc, locator)}")
    return "\n".join(lines)


def build_user_message(question: str, snippets: Sequence[tuple[str, str, str]],
                       numbers: Sequence[int] | None = None) -> str:
    """The generation user message: the question line, a blank line, then the snippet block (``numbers`` as there)."""
    return f"{QUESTION_LABEL}{_one_line(question)}\n\n{format_snippet_block(snippets, numbers)}"


def parse_user_message(content: str) -> tuple[str, list[CitedSnippet]]:
    """Split a user message built by ``build_user_message`` into its question and snippets.

    Args:
        content: the message text; without a ``问题：`` line, the text outside the block is the question.

    Returns:
        The question and the snippets in block order (empty when there is no block).
    """
    lines = content.splitlines()
    header = max((i for i, line in enumerate(lines) if line.strip() == SNIPPET_HEADER), default=len(lines))
    snippets = []
    for line in lines[header + 1:]:
        match = _SNIPPET_LINE.match(line.strip())
        if match:
            snippets.append(cited_snippet.CitedSnippet(match.group(2).strip(),
                                                       f"{CITATION_OPEN}{match.group(3)}{CITATION_CLOSE}"))
    asked = [line.strip() for line in lines[:header]]
    labelled = [line[len(QUESTION_LABEL):].strip() for line in asked if line.startswith(QUESTION_LABEL)]
    return (labelled[-1] if labelled else " ".join(line for line in asked if line)), snippets


class ExtractiveProvider:
    """An offline LLMProvider that composes its answer from verbatim, cited snippet sentences."""

    name = "extractive"
    model = "extractive-v1"

    def __init__(self, *, max_sentences: int = 3, equivalents: Callable[[str], Iterable[str]] | None = None,
                 entities: Callable[[str], frozenset[str]] | None = None) -> None:
        """Configure the provider.

        Args:
            max_sentences: the most sentences quoted in one answer.
            equivalents: the question's subjects in other words and languages (the glossary's
                ``equivalents``), so an English question can quote a Chinese passage about the
                same entity and metric; words alone never match across languages.
            entities: the entities a text names, the whole group aside (the glossary's ``entities_named``), so an
                answer on Hong Kong quotes no sentence on Japan while a passage speaks of Hong Kong.

        Raises:
            ValueError: ``max_sentences`` is below 1.
        """
        if max_sentences < 1:
            raise ValueError("max_sentences must be at least 1")
        self.max_sentences = max_sentences
        self._equivalents = equivalents
        self._entities = entities

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Answer the last user message from its snippet block.

        Args:
            messages: the generation messages; system and history messages are ignored.
            max_tokens: unused; the answer is bounded by ``max_sentences`` instead.
            temperature: unused; the answer is deterministic.

        Returns:
            The quoted sentences, each with its citation, after a short intro; or the
            no-evidence answer, in the question's language (zh, ja or en).
        """
        user = next((m.content for m in reversed(messages) if m.role is Role.USER), "")
        question, snippets = parse_user_message(user)
        language = detect_language(question)
        extra = list(self._equivalents(question)) if self._equivalents is not None else []
        quotes = select_sentences(question, snippets, limit=self.max_sentences, equivalents=extra,
                                  entities=self._entities)
        if not quotes:
            return chat.Completion(NO_EVIDENCE[language], self.model)
        return chat.Completion("\n".join([INTROS[language], *quotes]), self.model)


def select_sentences(question: str, snippets: Sequence[CitedSnippet], *, limit: int,
                     equivalents: Sequence[str] = (), entities: Callable[[str], frozenset[str]] | None = None,
                     ) -> list[str]:
    """The best-matching snippet sentences, each with its citation, in evidence order.

    A sentence scores the question tokens it shares, each weighted ``1 + ln(N / df)`` (``df``
    = snippets holding the token), so words every snippet repeats ("revenue", "FY2024") count
    less than the subject. It qualifies with at least half the best score; ties keep rank order.
    ``equivalents`` (other names of the question's subjects) count as question tokens.

    The narrative check turns away an answer whose cited passages all speak of other years, or a sentence on
    another entity (``qa/subject.py``, ``qa/relevance.py``). So when the question names a year, or an entity
    ``entities`` reads, and some snippet states it, a snippet stating only others is not quoted; nor, for entities,
    a sentence naming only others. A snippet or sentence stating none cannot tell and stays.
    """
    wanted = set(tokens(question)).union(*(tokens(term) for term in equivalents))
    held = [wanted.intersection(tokens(s.text)) for s in snippets]
    weight = {t: 1 + math.log(len(snippets) / sum(t in h for h in held)) for t in set().union(*held)}
    where = [f"{snippet.text} {snippet.citation}" for snippet in snippets]
    quotable = _narrowed(years(question), [years(text) for text in where], [True] * len(snippets))
    named_by = entities or _no_entities
    asked = named_by(question)
    named_in = [named_by(text) for text in where] if asked else [frozenset()] * len(snippets)
    quotable = _narrowed(asked, named_in, quotable)
    on_asked = any(kept and named & asked for kept, named in zip(quotable, named_in, strict=True))
    scored = []
    for rank, snippet in enumerate(snippets):
        if not quotable[rank]:
            continue
        for position, sentence in enumerate(split_sentences(snippet.text)):
            named = named_by(sentence) if on_asked else frozenset()
            if named and not named & asked:  # on other entities only, while a passage names the one asked
                continue
            shared = wanted.intersection(tokens(sentence))
            # a bigram holding a hiragana particle (件の, 会で) is the grammar around a word: alone, it is no match
            if any(_PARTICLE.search(token) is None for token in shared):
                score = sum(weight[t] for t in shared)
                scored.append((score, rank, position, sentence + snippet.citation, sentence))
    best = []
    if scored:
        floor = max(s[0] for s in scored) / 2
        # A sentence shown in two snippets (a paragraph, and the section of another hit) is quoted once,
        # from the higher-ranked snippet.
        quoted: dict[str, tuple[float, int, int, str, str]] = {}
        for item in sorted((s for s in scored if s[0] >= floor), key=lambda s: (-s[0], s[1], s[2])):
            quoted.setdefault(item[4], item)
        best = list(quoted.values())[:limit]
    if snippets and quotable[0] and not any(s[1] == 0 for s in best) \
            and detect_language(snippets[0].text) != detect_language(question):
        # The retriever ranked a passage in another language first (the dense leg matches across
        # languages, words cannot): quote its opening sentence rather than ignore the best hit.
        opening = next(iter(split_sentences(snippets[0].text)), "")
        if opening:
            best = [(0.0, 0, 0, opening + snippets[0].citation, opening),
                    *[s for s in best if s[4] != opening][:limit - 1]]
    return list(dict.fromkeys(s[3] for s in sorted(best, key=lambda s: (s[1], s[2]))))


def _no_entities(text: str) -> frozenset[str]:
    """No entity namer given: every text names none."""
    return frozenset()


def _narrowed(asked: frozenset[str], stated: Sequence[frozenset[str]], kept: list[bool]) -> list[bool]:
    """``kept`` less the snippets stating only things not ``asked``, when a kept snippet states one asked."""
    if not asked or not any(k and each & asked for k, each in zip(kept, stated, strict=True)):
        return kept
    return [k and (not each or bool(each & asked)) for k, each in zip(kept, stated, strict=True)]


def split_sentences(text: str) -> list[str]:
    """Sentences of a snippet, verbatim with their end marks, blanks dropped."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


def tokens(text: str) -> list[str]:
    """Overlap tokens: CJK bigrams (one-character runs as such), Latin words and numbers.

    Bigrams made only of hiragana (Japanese particles and endings) and common question
    words are dropped: they would make every snippet look relevant.
    """
    return _tokenizer().tokens(text)


@cache
def _tokenizer() -> Tokenizer:
    """Built on the first answer composed: a service that answers from facts alone never compiles its patterns."""
    return Tokenizer(scripts=(_CJK,), drop_grams=_HIRAGANA, stopwords=_STOP)


def detect_language(text: str) -> str:
    """``ja`` when the text has kana, ``zh`` when it has other CJK characters, else ``en``."""
    if re.search(f"[{_KANA}]", text):
        return "ja"
    return "zh" if re.search(f"[{_CJK}]", text) else "en"


def _one_line(text: str) -> str:
    return " ".join(text.split())
