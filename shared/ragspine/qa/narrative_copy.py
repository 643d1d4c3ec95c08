"""A reply that copies a passage's sentence in another language than the question's.

Asked again from a named Chinese sentence for a Japanese question, a 1.5B model copied that
sentence word for word: the right content, cited right, but not in the language asked. Such a
reply is told apart from one merely written in another language: most of its letters are one
passage sentence's, in the same order. The sentence and the language it is written in are what
the model is then told, so it can say that content in the question's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from ragspine.lazy import LazyPattern
from ragspine.qa.evidence import Evidence
from ragspine.qa.language import Lang
from ragspine.qa.reply import keeps_language, strip_citations

# Share of the reply's letters found in one passage sentence, in order, for the reply to be its copy.
COPIED = 0.6
# Fewer letters than this say too little to be told from a coincidence.
MIN_LETTERS = 8
_SENTENCE_END = LazyPattern(r"(?<=[。！？!?])|(?<=\.)\s+")
_NOT_LETTER = LazyPattern(r"[\W\d_]+")


@dataclass(frozen=True, slots=True)
class Copied:
    """The passage sentence a reply copies: its 0-based passage, the sentence, and the language it is in."""

    passage: int
    sentence: str
    written_in: Lang


def copied_sentence(reply: str, evidence: Sequence[Evidence], lang: Lang) -> Copied | None:
    """The sentence in another language than ``lang`` that ``reply`` copies, the closest one; None if none."""
    said = _letters(strip_citations(reply))
    if len(said) < MIN_LETTERS:
        return None
    best: tuple[float, Copied] | None = None
    for i, item in enumerate(evidence):
        for sentence in _SENTENCE_END.split(item.text):
            sentence = sentence.strip()
            written_in = language_of(sentence)
            if not sentence or written_in is None or written_in is lang:
                continue
            blocks = SequenceMatcher(None, said, _letters(sentence), autojunk=False).get_matching_blocks()
            share = sum(block.size for block in blocks) / len(said)
            if share >= COPIED and (best is None or share > best[0]):
                best = (share, Copied(i, sentence, written_in))
    return best[1] if best is not None else None


def language_of(text: str) -> Lang | None:
    """The language ``text`` is written in (Japanese before Chinese: kana decides), None when none holds."""
    if len(_letters(text)) < MIN_LETTERS:
        return None
    return next((lang for lang in (Lang.JA, Lang.ZH, Lang.EN) if keeps_language(text, lang)), None)


def _letters(text: str) -> str:
    return _NOT_LETTER.sub("", text).lower()
