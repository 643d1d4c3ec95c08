"""``ragspine domain suggest``: the row labels of ingested tables that the glossary does not name.

Labels are read from each active version's stored parsed document (the ``document.json``
ingestion keeps beside its text): in every data row of a table, the cells before the first
number (the label columns, so a ``Segment | Metric | FY2024`` row gives both). A label the
glossary names as anything (metric, entity, channel) or that reads as a period is left out;
so is one with no letter (a date, a code of digits). The fragment written is a starting
point: give each metric its code, unit and names, delete what is not a metric, and merge it
under ``metrics:`` in glossary.yaml.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from unicodedata import normalize

from ragspine.facts.glossary import SlotKind, normalize_text
from ragspine.ingestion.table_rows import row_number
from ragspine.numbers import is_number
from ragspine.qa.language import detect_language

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary
    from ragspine.ingestion.model import Block, ParsedDocument

_NOT_CODE = re.compile(r"[^A-Z0-9]+")
_LETTER = re.compile(r"[^\W\d_]")
_FOOTNOTE = re.compile(r"(?:\s*(?:※\d*|\*\d*|†+|‡+|\(\d\)))+$")


@dataclass
class LabelSeen:
    """One label the glossary does not name: how often and where it was seen."""

    label: str
    count: int = 0
    documents: set[str] = field(default_factory=set)
    sample: tuple[str, str] = ("", "")  # (document, locator) of the first row it labels


def unnamed_labels(documents: Iterable[ParsedDocument], glossary: Glossary) -> list[LabelSeen]:
    """Labels of table rows no glossary entry names, most frequent first."""
    seen: dict[str, LabelSeen] = {}
    for doc in documents:
        for block in doc.blocks:
            for label, locator in _row_labels(block):
                key = normalize_text(label).strip()
                if key in glossary.aliases or glossary.normalize_period(label) is not None:
                    continue
                entry = seen.setdefault(key, LabelSeen(label, sample=(doc.doc_id, locator)))
                entry.count += 1
                entry.documents.add(doc.doc_id)
    return sorted(seen.values(), key=lambda e: (-e.count, e.label.casefold()))


def _row_labels(block: Block) -> Iterator[tuple[str, str]]:
    """``(label, locator)`` of the label cells of each data row (the cells before its first number)."""
    rows = block.rows
    for index, row in enumerate(rows):
        cells = [cell.strip() for cell in row]
        first_number = next((i for i, cell in enumerate(cells) if cell and is_number(cell)), None)
        if first_number is None:
            continue  # a header or a row of words: no figure it labels
        for cell in cells[:first_number]:
            label = _FOOTNOTE.sub("", cell).strip()
            if label and _LETTER.search(label):
                yield label, f"{block.locator},row={row_number(block, index)}"


def glossary_fragment(labels: list[LabelSeen], glossary: Glossary) -> str:
    """A ``metrics:`` fragment proposing one metric per label, with a comment saying where it was seen."""
    units = Counter(term.unit for term in glossary.terms[SlotKind.METRIC].values() if term.unit)
    unit = units.most_common(1)[0][0] if units else "NUMBER"
    lines = ["# Row labels of ingested tables that glossary.yaml does not name (`ragspine domain suggest`).",
             "# For each: keep or change the code, set the unit the document states, add names and aliases;",
             "# delete the entries that are not metrics (entities, line items you do not ask about).",
             "# Then merge the entries under `metrics:` in glossary.yaml and run `ragspine domain check`",
             "# and `ragspine facts reextract`.",
             "metrics:"]
    codes: set[str] = set(glossary.terms[SlotKind.METRIC])
    for number, entry in enumerate(labels, 1):
        code = _code(entry.label, number, codes)
        codes.add(code)
        doc, locator = entry.sample
        lang = detect_language(entry.label).value
        lines += [f"  {code}:",
                  f"    # seen in {entry.count} row(s) of {len(entry.documents)} document(s), e.g. {doc} · {locator}",
                  f"    unit: {unit}  # check: the unit this row states",
                  f"    names: {{{lang}: {json.dumps(entry.label, ensure_ascii=False)}}}",
                  f"    aliases: [{json.dumps(entry.label, ensure_ascii=False)}]"]
    return "\n".join(lines) + "\n"


def _code(label: str, number: int, taken: set[str]) -> str:
    """``Net turnover (stores)`` -> NET_TURNOVER_STORES; a label without Latin letters -> METRIC_<n>."""
    slug = _NOT_CODE.sub("_", normalize("NFKC", label).upper()).strip("_")
    code = slug if slug and slug[0].isalpha() and slug.isascii() else f"METRIC_{number}"
    base, suffix = code, 2
    while code in taken:
        code, suffix = f"{base}_{suffix}", suffix + 1
    return code
