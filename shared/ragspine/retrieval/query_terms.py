"""Query-side expansion of analyst vocabulary for the lexical leg (``config/analyst_terms.yaml``).

"FY2018 capex ... in the cash flow statement" shares almost no word with the page that
answers it ("Purchases of property, plant and equipment", "Consolidated Statements of Cash
Flows"). Each entry of the data file names phrases an analyst writes and the words a
statement prints; a question containing a phrase (whole words, case aside) has those words
appended to its lexical query. The embedder keeps the question as asked: e5 already relates
the two vocabularies, and extra words would move its vector. A rule may also name the
financial statements the phrase refers to (``statement: balance_sheet``, or a list: working
capital is read on the balance sheet, capital intensity on the balance sheet and the cash-flow
statement): ``statements`` gives those kinds, and the retriever then asks for the passages under
those statements' titles. Such a rule may add no words at all: "gross margin" asks for the
income statement, whose lines ("cost of products", "cost of sales") vary too much to list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ragspine.config_loader import config_path, load_yaml
from ragspine.errors import ConfigurationError
from ragspine.facts.statements import STATEMENT_KINDS

ANALYST_TERMS = "analyst_terms.yaml"


@dataclass(frozen=True, slots=True)
class TermRule:
    """Phrases that trigger the rule, the words it adds and the statements it points at."""

    when: re.Pattern[str]
    add: str
    statements: tuple[str, ...] = ()


class QueryExpander:
    """Appends the words of every rule whose phrase the question contains."""

    def __init__(self, rules: Sequence[TermRule]) -> None:
        self._rules = tuple(rules)

    def expand(self, query: str) -> str:
        """The query, then on a new line the words of each matching rule (the query alone if none)."""
        added = [rule.add for rule in self._rules if rule.add and rule.when.search(query)]
        return "\n".join((query, *added)) if added else query

    def statements(self, query: str) -> tuple[str, ...]:
        """The statement kinds the question names (``balance_sheet``...), in rule order."""
        kinds = [kind for rule in self._rules if rule.statements and rule.when.search(query)
                 for kind in rule.statements]
        return tuple(dict.fromkeys(kinds))


def load_rules(path: Path) -> list[TermRule]:
    """The rules of an analyst-terms file.

    Raises:
        ConfigurationError: the file is unreadable, an entry lacks ``when`` phrases, has neither
            ``add`` words nor a ``statement``, or names an unknown statement.
    """
    entries = load_yaml(path).get("terms")
    if not isinstance(entries, list):
        raise ConfigurationError(f"{path}: 'terms' must be a list of {{when: [...], add: ...}}")
    rules = []
    for number, entry in enumerate(entries, start=1):
        when = entry.get("when") if isinstance(entry, dict) else None
        add = entry.get("add", "") if isinstance(entry, dict) else None
        named = entry.get("statement", ()) if isinstance(entry, dict) else ()
        statements = (named,) if isinstance(named, str) else named
        if not (isinstance(when, list) and when and all(isinstance(p, str) and p.strip() for p in when)
                and isinstance(add, str) and isinstance(statements, (list, tuple)) and (add.strip() or statements)):
            raise ConfigurationError(f"{path}: entry {number} needs 'when' (a list of phrases) and 'add' (words) "
                                     "or 'statement' (a statement kind or a list of them)")
        unknown = [kind for kind in statements if kind not in STATEMENT_KINDS]
        if unknown:
            raise ConfigurationError(f"{path}: entry {number}: statement {unknown[0]!r} is not one of "
                                     f"{', '.join(STATEMENT_KINDS)}")
        phrases = "|".join(r"\s+".join(map(re.escape, p.split())) for p in when)
        rules.append(TermRule(re.compile(rf"(?<!\w)(?:{phrases})(?!\w)", re.IGNORECASE), add.strip(),
                              tuple(dict.fromkeys(statements))))
    return rules


@lru_cache(maxsize=1)
def default_expander() -> QueryExpander:
    """The shipped analyst vocabulary, loaded once."""
    return QueryExpander(load_rules(config_path(ANALYST_TERMS)))
