"""``ragspine domain suggest``: the row labels of ingested tables that the glossary does not name.

Labels are read from each active version's stored parsed document (the ``document.json``
ingestion keeps beside its text): in every data row of a table, the cells before the first
number (the label columns, so a ``Segment | Metric | FY2024`` row gives both). A label the
glossary names as anything (metric, entity, channel) or that reads as a period is left out,
read as ingestion reads it (``ROE (%)`` is ROE); so is one with no letter (a date, a code of
digits). A label close to a metric's alias (``owners of parent`` for ``owners of the parent``)
is proposed as an alias of that metric, not as a new one. The fragment written is a starting
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
from ragspine.ingestion.table_axes import name_of
from ragspine.ingestion.table_rows import row_number
from ragspine.numbers import is_number
from ragspine.numbers.units import units_in
from ragspine.qa.language import detect_language

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary
    from ragspine.ingestion.model import Block, ParsedDocument

_NOT_CODE = re.compile(r"[^A-Z0-9]+")
_LETTER = re.compile(r"[^\W\d_]")
_FOOTNOTE = re.compile(r"(?:\s*(?:※\d*|\*\d*|†+|‡+|\(\d\)))+$")
# Words an alias may leave out or add without naming another line item ("owners of (the) parent").
_FILLER_WORDS = frozenset({"the", "a", "an", "of", "for", "to", "and", "&", "'s"})
_WORD = re.compile(r"[^\W_]+(?:'s)?|&")


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
                if key in glossary.aliases or not name_of(glossary, label).unknown:
                    continue  # named, or read as ingestion reads it (a period, a unit note, "ROE (%)")
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
    near = _alias_words(glossary)
    for number, entry in enumerate(labels, 1):
        doc, locator = entry.sample
        seen = f"    # seen in {entry.count} row(s) of {len(entry.documents)} document(s), e.g. {doc} · {locator}"
        label = json.dumps(entry.label, ensure_ascii=False)
        close = near.get(_content_words(entry.label))
        if close is not None:
            code, alias = close
            term = glossary.terms[SlotKind.METRIC][code]
            names = ", ".join(f"{lang}: {json.dumps(name, ensure_ascii=False)}" for lang, name in term.names.items())
            lines += [f"  {code}:",
                      f"    # an alias of {code}: close to its alias {json.dumps(alias, ensure_ascii=False)}",
                      seen, f"    unit: {term.unit or unit}", f"    names: {{{names}}}",
                      *(["    additive: true"] if term.additive else []),
                      f"    aliases: [{label}]"]
            continue
        code = _code(entry.label, number, codes)
        codes.add(code)
        own = units_in(entry.label, glossary.currency)
        stated = f"    unit: {own[0]}  # the unit the label states" if own else \
            f"    unit: {unit}  # check: the unit this row states"
        lang = detect_language(entry.label).value
        lines += [f"  {code}:", seen, stated,
                  f"    names: {{{lang}: {label}}}",
                  f"    aliases: [{label}]"]
    return "\n".join(lines) + "\n"


def _alias_words(glossary: Glossary) -> dict[frozenset[str], tuple[str, str]]:
    """The content words of each metric alias -> (metric, alias): what a label close to the alias has."""
    words: dict[frozenset[str], tuple[str, str]] = {}
    for alias, (kind, code) in glossary.aliases.items():
        content = _content_words(alias)
        if kind is SlotKind.METRIC and content:
            words.setdefault(content, (code, alias))
    return words


def _content_words(label: str) -> frozenset[str]:
    """A label's words without articles and linking words, in matching form (case and width folded)."""
    return frozenset(w for w in _WORD.findall(normalize_text(label)) if w not in _FILLER_WORDS)


def _code(label: str, number: int, taken: set[str]) -> str:
    """``Net turnover (stores)`` -> NET_TURNOVER_STORES; a label without Latin letters -> METRIC_<n>."""
    slug = _NOT_CODE.sub("_", normalize("NFKC", label).upper()).strip("_")
    code = slug if slug and slug[0].isalpha() and slug.isascii() else f"METRIC_{number}"
    base, suffix = code, 2
    while code in taken:
        code, suffix = f"{base}_{suffix}", suffix + 1
    return code
