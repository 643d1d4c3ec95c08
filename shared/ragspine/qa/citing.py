"""Citations that point where each sentence of a model's answer came from.

The prompt numbers its passages [1], [2]...; a model cites them as ``[1]``, ``【2】``, ``(3)``,
``资料4`` or with the seed's ``（来源：doc locator）``. Each marker is replaced, where it stands,
by the seed's citation of the passages it names. A sentence with no marker is tied to the passage
whose words it shares most (the safety net: the passage used, never a document's first
passage), or to none when it shares too little (an intro, a heading, a conclusion). The
passages cited this way are the answer's sources, in order of first use.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.llm.extractive import format_citation, tokens
from ragspine.qa.answer_structure import passage_references
from ragspine.qa.ports import Evidence

# A sentence ends after 。！？!? (and their run of closing marks), a period before a space, or a line break.
_SENTENCE = re.compile(r"[^\n]*?(?:[。！？!?]+[）)」』\]】]*|\.(?=\s)|(?=\n)|$)")
_CITED = re.compile(r"[（(](?:来源|出典|source)[:：]\s*(?P<body>(?:[^（）()]|[（(][^（）()]*[）)])*)[）)]",
                    re.IGNORECASE)
# Citations and markers written after a sentence's end mark belong to that sentence: "…关闭。[1]（来源：…）".
_TRAILING = re.compile(r"^(?:\s*(?:[（(](?:来源|出典|source)[:：](?:[^（）()]|[（(][^（）()]*[）)])*[）)]"
                       r"|[\[［【]\s*\d[\d\s,，、\-]*[\]］】]))+", re.IGNORECASE)
# Shared overlap tokens a sentence needs to be tied to a passage, and the share of its own tokens.
MIN_SHARED = 2
MIN_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class CitedAnswer:
    """The answer with citations rendered, the passages each sentence came from, and the ones used."""

    text: str
    sentences: tuple[tuple[str, tuple[int, ...]], ...]  # (sentence as written, 0-based passage indexes)
    used: tuple[int, ...]


def cite(answer: str, evidence: Sequence[Evidence]) -> CitedAnswer:
    """Render ``answer``'s passage markers as citations and tie unmarked sentences to their passage."""
    out: list[str] = []
    sentences: list[tuple[str, tuple[int, ...]]] = []
    used: dict[int, None] = {}
    for line in answer.splitlines(keepends=True):
        body = line.rstrip("\n")
        for sentence in _split(body):
            rendered, passages = _cite_sentence(sentence, evidence)
            out.append(rendered)
            if sentence.strip():
                sentences.append((sentence, passages))
            used.update(dict.fromkeys(passages))
        out.append(line[len(body):])
    return CitedAnswer("".join(out), tuple(sentences), tuple(used))


def passage_of(sentence: str, evidence: Sequence[Evidence]) -> int | None:
    """The 0-based index of the passage ``sentence`` shares most words with, if it shares enough."""
    own = set(tokens(sentence))
    if not own:
        return None
    best, index = 0, None
    for i, item in enumerate(evidence):
        shared = len(own & set(tokens(item.context or item.text)))
        if shared > best:
            best, index = shared, i
    return index if best >= MIN_SHARED and best >= MIN_SHARE * len(own) else None


def _split(text: str) -> list[str]:
    parts: list[str] = []
    for match in _SENTENCE.finditer(text):
        part = match.group(0)
        trailing = _TRAILING.match(part)
        if trailing and parts:
            parts[-1] += trailing.group(0)
            part = part[trailing.end():]
        if part:
            parts.append(part)
    return parts or [text]


def _cite_sentence(sentence: str, evidence: Sequence[Evidence]) -> tuple[str, tuple[int, ...]]:
    """The sentence with its markers rendered, and the passages it cites (or overlaps)."""
    folded = _fold(sentence)
    references = passage_references(folded, passages=len(evidence))
    named = [i - 1 for r in references for i in r.passages]
    named += [i for m in _CITED.finditer(sentence) for i in _cited_passages(m.group("body"), evidence)]
    if references:  # each marker becomes its passages' citations, where the model put it
        kept, last = [], 0
        for r in references:
            kept += [sentence[last:r.start].rstrip(" "), _citations([evidence[i - 1] for i in r.passages])]
            last = r.end
        kept.append(sentence[last:])
        sentence = "".join(kept)
    passages = tuple(dict.fromkeys(named))
    if not passages and not _CITED.search(sentence):
        tied = passage_of(sentence, evidence)
        passages = (tied,) if tied is not None else ()
    new = [i for i in passages if not _already_cited(sentence, evidence[i])]
    if not new:
        return sentence, passages
    stripped = sentence.rstrip()
    return stripped + _citations([evidence[i] for i in new]) + sentence[len(stripped):], passages


def _citations(items: Sequence[Evidence]) -> str:
    return "".join(dict.fromkeys(format_citation(e.doc, e.locator) for e in items))


def _cited_passages(body: str, evidence: Sequence[Evidence]) -> list[int]:
    """Passages a written ``（来源：doc locator）`` names: the exact one, else every passage of that doc."""
    text = " ".join(body.split())
    exact = [i for i, e in enumerate(evidence) if f"{e.doc} {e.locator}" in text]
    return exact or [i for i, e in enumerate(evidence) if e.doc in text]


def _already_cited(sentence: str, item: Evidence) -> bool:
    return format_citation(item.doc, item.locator) in sentence


def _fold(text: str) -> str:
    """NFKC per character where it keeps the length, so match positions stay those of ``text``."""
    out = []
    for char in text:
        folded = unicodedata.normalize("NFKC", char)
        out.append(folded if len(folded) == 1 else char)
    return "".join(out)
