"""Whether a checked reply answers the question asked, not only whether what it says is sourced.

A small model's reply can pass every number check and still not answer: it restates the
question ("Japan's gross margin recovered in 2025.") or speaks only of another entity than the
one asked about (Japan's causes for a Hong Kong question). One sentence of an otherwise
answering reply can do the latter too (Japan's cause listed among Hong Kong's); it is found
alone, so that it can be dropped. Both are read from the words alone:
a reply whose words are nearly all the question's, with at most a few of its own, adds
nothing; a reply naming entities, none of them one the question names, is about something
else. The home group is no such entity (a question about Hong Kong may say "the group").
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.llm.extractive import tokens
from ragspine.qa.attribution import Namer

RESTATED = "RESTATED_QUESTION"
OTHER_ENTITY = "OTHER_ENTITY"
# Below this share of its own words that are not the question's, a reply only restates it...
MIN_NEW_WORDS = 0.34
# ...as long as those new words are this few (a long reply quoting the question says more too).
# Words are tokens: Latin words, and Han/kana bigrams, so a reworded CJK question ("转为" said
# as "转换到") brings two or three.
MAX_NEW_WORDS = 4


def off_question(question: str, claims_of: Sequence[str], *, entities: Namer | None = None,
                 home: frozenset[str] = frozenset()) -> str | None:
    """``RESTATED`` or ``OTHER_ENTITY`` when the reply does not answer ``question``, else None.

    Args:
        question: the user's question.
        claims_of: each reply sentence's claim text (citations and layout blanked).
        entities: names the entities of a text; None skips the entity check.
        home: entity codes that stand for the whole group, never "another entity".
    """
    said = " ".join(claims_of)
    own = set(tokens(said))
    asked = set(tokens(question))
    new = own - asked
    if own and len(new) <= MAX_NEW_WORDS and len(new) < MIN_NEW_WORDS * len(own):
        return RESTATED
    if entities is not None:
        wanted = entities(question) - home
        named = entities(said) - home
        if wanted and named and not wanted & named:
            return OTHER_ENTITY
    return None


def about_other_entity(question: str, claims: str, cited: Sequence[frozenset[str]], *, entities: Namer,
                       home: frozenset[str] = frozenset()) -> bool:
    """Whether one sentence speaks of another entity than the one ``question`` asks about.

    It does when it names entities, none of them asked about (Japan's price rise in a Hong Kong
    answer), or names none while every passage it cites speaks only of other entities (their
    text, heading or document). A question naming no entity but the home group asks about all.

    Args:
        question: the user's question.
        claims: the sentence's claim text (citations and layout blanked).
        cited: the entities each passage the sentence cites names.
        entities: names the entities of a text.
        home: entity codes that stand for the whole group, never "another entity".
    """
    wanted = entities(question) - home
    if not wanted:
        return False
    named = entities(claims) - home
    if named:
        return not named & wanted
    spoken = [c - home for c in cited]
    return bool(spoken) and all(spoken) and not any(s & wanted for s in spoken)
