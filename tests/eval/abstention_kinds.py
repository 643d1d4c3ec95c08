"""What an abstaining answer says it could not do, as one kind: the TAT-QA evaluations count abstentions by it.

The kind is read from the answer's own words (a question back, a not-found line, a reason why no
value is computed) and the count of facts the question's table gave, so two runs compare kind by
kind. The first rule that matches names the kind; the order puts the reading of the table
before the arithmetic on it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

NO_FACTS = "question back, no row read: the table gave no facts"
TOTAL_ROW = "question back, no row read: a Total row named"
NO_ROW = "question back, no row read: other"
TIED = "rows tied, offered back"
TEXT_SEARCH = "text search with no structured answer"
OUT_OF_SCOPE = "screened out of scope"
UNKNOWN_ENTITY = "a word read as an unknown company"
NO_PERIOD_NAMED = "no period named: the current year asked, none stated"
NO_FIGURE = "no figure for a period asked"
NOT_COMPUTABLE = "not computable, reason stated"
STATED_ONLY = "stated figures only, no arithmetic read"
COMPUTED_OTHER = "computed, but not the figure asked"
OTHER = "other"

_GLOSSARY_ONLY = "Which figure do you mean? Choose one: revenue"  # the options are the fresh glossary's metrics
_TEXT_SEARCH = ("According to the retrieved documents", "The documents do not say", "None of the retrieved documents")
_NO_FIGURE = re.compile(r"cannot be computed: there is no figure for")
_NOT_COMPUTABLE = re.compile(r"cannot be computed|not computed|Nothing is counted|names more than the row|"
                             r"is not clear, so no value|no value is given|no change is given")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|\bF(?:Y\s?)?\d\d\b", re.IGNORECASE)
_TOTAL = re.compile(r"\btotal\b", re.IGNORECASE)


def abstention_kind(question: str, answer: str, table_facts: int) -> str:
    """The kind of an abstention: ``answer`` gave no figure of the kind ``question`` asks for;
    ``table_facts`` is how many facts the question's table gave."""
    lines = [line for line in answer.splitlines() if line.strip() and not line.startswith("(Assumed")]
    first = lines[0] if lines else ""
    if first.startswith(_GLOSSARY_ONLY):
        if table_facts == 0:
            return NO_FACTS
        return TOTAL_ROW if _TOTAL.search(question) else NO_ROW
    if first.startswith(("Which figure do you mean", "Which did you mean")):
        return TIED
    if first.startswith(_TEXT_SEARCH):
        return TEXT_SEARCH
    if first.startswith("Sorry, that is outside"):
        return OUT_OF_SCOPE
    if "Could not recognise the entity" in first:
        return UNKNOWN_ENTITY
    if first.startswith("No data for") or _NO_FIGURE.search(answer):
        return NO_FIGURE if _YEAR.search(question) else NO_PERIOD_NAMED
    if _NOT_COMPUTABLE.search(answer):
        return NOT_COMPUTABLE
    if "计算自" in answer:
        return COMPUTED_OTHER
    if "来源" in answer:
        return STATED_ONLY
    return OTHER


def tally(examples: Iterable[Mapping[str, object]]) -> dict[str, int]:
    """Abstentions counted by their ``kind``, largest first."""
    return dict(Counter(str(example["kind"]) for example in examples).most_common())
