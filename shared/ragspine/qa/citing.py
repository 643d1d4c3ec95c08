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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine.abbreviations import NO_ABBREVIATION_BEFORE
from ragspine.llm.extractive import format_citation, tokens
from ragspine.qa.answer_structure import passage_references
from ragspine.qa.citation_spans import citations
from ragspine.qa.evidence import Evidence

# A sentence ends after 。！？!? (and their run of closing marks), a period before a space or a citation
# (not that of "Co." or "Ltd."), or a line break; never inside a citation (``_split``).
_SENTENCE = re.compile(rf"[^\n]*?(?:[。！？!?]+[）)」』\]】]*"
                       rf"|{NO_ABBREVIATION_BEFORE}\.(?=\s|[（(](?:来源|出典|(?i:source))[:：])|(?=\n)|$)")
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
    layout: tuple[str | int, ...] = ()  # ``text`` as its pieces: blanks and line ends, or a sentence's index
    rendered: tuple[str, ...] = ()  # each sentence with its citations, as in ``text``


def cite(answer: str, evidence: Sequence[Evidence]) -> CitedAnswer:
    """Render ``answer``'s passage markers as citations and tie unmarked sentences to their passage."""
    layout: list[str | int] = []
    rendered: list[str] = []
    sentences: list[tuple[str, tuple[int, ...]]] = []
    for line in answer.splitlines(keepends=True):
        body = line.rstrip("\n")
        for sentence in _split(body):
            shown, passages = _cite_sentence(sentence, evidence)
            if sentence.strip():
                layout.append(len(sentences))
                sentences.append((sentence, passages))
                rendered.append(shown)
            else:
                layout.append(shown)
        layout.append(line[len(body):])
    return _assembled(tuple(layout), tuple(sentences), tuple(rendered))


def revised(cited: CitedAnswer, evidence: Sequence[Evidence], changes: Mapping[int, int | None]) -> CitedAnswer:
    """``cited`` with sentence i re-cited to passage ``changes[i]`` alone, or dropped when it maps to None.

    A re-cited sentence loses the citations it had, wherever the model put them, and ends with its
    new one; ``evidence`` may extend the passages ``cited`` was made from (their indexes stay).
    """
    sentences = list(cited.sentences)
    rendered = list(cited.rendered)
    for i, passage in changes.items():
        if passage is None:
            continue
        shown = rendered[i]
        for old in sentences[i][1]:
            shown = shown.replace(format_citation(evidence[old].doc, evidence[old].locator), "")
        stripped = shown.rstrip()
        rendered[i] = stripped + _citations([evidence[passage]]) + shown[len(stripped):]
        sentences[i] = (sentences[i][0], (passage,))
    kept = [i for i in range(len(sentences)) if i not in changes or changes[i] is not None]
    index = {old: new for new, old in enumerate(kept)}
    layout = _closed_up(tuple(index[p] if isinstance(p, int) else p
                              for p in cited.layout if not isinstance(p, int) or p in index))
    revision = _assembled(layout, tuple(sentences[i] for i in kept), tuple(rendered[i] for i in kept))
    # A dropped sentence leaves its spacing behind: "A. B." without A is " B." -> "B."
    return revision if len(kept) == len(sentences) else _trimmed(revision)


def _assembled(layout: tuple[str | int, ...], sentences: tuple[tuple[str, tuple[int, ...]], ...],
               rendered: tuple[str, ...]) -> CitedAnswer:
    """The answer's text and the passages it uses, in order of first use, from its pieces."""
    text = "".join(rendered[p] if isinstance(p, int) else p for p in layout)
    used = dict.fromkeys(i for _, passages in sentences for i in passages)
    return CitedAnswer(text, sentences, tuple(used), layout, rendered)


def _closed_up(layout: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The layout with each run of blank pieces a dropped sentence left behind cut to its last one."""
    kept: list[str | int] = []
    for piece in layout:
        if isinstance(piece, str) and not piece.strip() and kept and isinstance(kept[-1], str) \
                and not kept[-1].strip():
            kept[-1] = piece
        else:
            kept.append(piece)
    return tuple(kept)


def _trimmed(cited: CitedAnswer) -> CitedAnswer:
    rendered = tuple(r.lstrip() if i == 0 else r for i, r in enumerate(cited.rendered))
    return CitedAnswer("".join(rendered[p] if isinstance(p, int) else p for p in cited.layout).strip(),
                       cited.sentences, cited.used, cited.layout, rendered)


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
    # A heading in a citation's locator may hold a sentence end ("heading=Acme Co., Ltd. - Review"):
    # a sentence running into a citation runs to its close, so no citation is ever put inside another.
    spans = [(c.start, c.end) for c in citations(text)]
    parts: list[str] = []
    for match in _SENTENCE.finditer(text):
        part = match.group(0)
        closing = next((end for start, end in spans if start < match.start() < end), None)
        if parts and closing is not None:
            parts[-1] += part[:closing - match.start()]
            part = part[closing - match.start():]
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
    named = {i: f"{e.doc} {e.locator}" for i, e in enumerate(evidence) if f"{e.doc} {e.locator}" in text}
    # A section's locator is the start of its paragraphs' (heading=H of heading=H,para=1): the longest is meant.
    exact = [i for i, ref in named.items() if not any(o != ref and o.startswith(ref) for o in named.values())]
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
