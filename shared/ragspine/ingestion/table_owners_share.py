"""A row naming the company's own share of a result by the company's name ("Net earnings attributable to Acme").

A US GAAP income statement splits net earnings between the noncontrolling interests and the
company, and often names the company's share by the company's own name. That share is what
the owners of the parent hold: the row reads as "… attributable to shareholders", words a
glossary can name, where the name is the company the table is about (never another's), in a
table that splits off the noncontrolling interests' share: the statement itself. The same words
under "Basic earnings per share:" (a heading a PDF table's grid keeps no row for) are a figure
per share, in a table of per-share rows that splits nothing off.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ragspine.ingestion.table_subject import same_company

_NONCONTROLLING = re.compile(r"(?i)\bnon-?\s?controlling\s+interests?\b|\bminority\s+interests?\b")
_ATTRIBUTABLE = re.compile(r"(?i)^(?P<what>.*?\battributable\s+to)\s+(?P<whom>\S.*?)[\s:]*$")


def owners_share(label: str, company_names: Iterable[str]) -> str:
    """``label`` with the company's name after "attributable to" read as its shareholders, else ""."""
    match = _ATTRIBUTABLE.match(label)
    if match is None:
        return ""
    whom = match.group("whom")
    if not any(name and same_company(whom, name) for name in company_names):
        return ""
    return f"{match.group('what')} shareholders"


def splits_off_noncontrolling(row_labels: Iterable[Sequence[str]]) -> bool:
    """Whether a table's rows name the noncontrolling (minority) interests' share."""
    return any(_NONCONTROLLING.search(label) for labels in row_labels for label in labels)
