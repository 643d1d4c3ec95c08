"""Metrics and companies the documents name but the glossary does not: codes derived from their own words.

A statement's row label the glossary does not know (``Purchases of property, plant and
equipment``, ``売上原価``) still becomes a metric, coded ``label:`` plus the label in its
matching form (NFKC, lower case, one space between words), and a company a document states it
is about becomes an entity coded ``company:`` plus its name in that form. Glossary codes are
upper-case identifiers, so the two never collide; the label is recoverable from the code, so
the fact store needs no new field, and a question naming the label reaches the facts.

``with_open_terms`` gives a glossary those codes as terms, their words as aliases: the
glossary's own names, aliases and translations stay on top (a label the glossary names is
never coded here: it maps onto the glossary's term at extraction).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind, Term
from ragspine.facts.matching import slot_regex
from ragspine.lazy import LazyPattern

if TYPE_CHECKING:  # the fact stores import the prefixes alone: keep their import light
    from ragspine.facts.glossary import Glossary, SlotKind

METRIC_PREFIX = "label:"
ENTITY_PREFIX = "company:"
MAX_LABEL_CHARS = 100
# A row's own label beside its figures may run longer ("Total interest expense, net presented in the
# consolidated statements of income in which the effects of cash flow hedges are recorded"): one phrase is
# still its line item; a sentence break inside it says the cell is text.
MAX_ROW_LABEL_CHARS = 160
_SENTENCE_BREAK = LazyPattern(r"[.;!?]\s+\S")
_SPACES = LazyPattern(r"\s+")
_LETTER = LazyPattern(r"[^\W\d_]")
# Punctuation a question may leave out of a label ("property, plant and equipment").
_LOOSE = LazyPattern(r"\s*[,，、:：;；]\s*|\s+")
# An arithmetic sign before a row's words ("+ Depreciation and amortization" in a reconciliation): a
# question writing "A + B" uses the sign to add, so no name of the row starts with it.
_LEADING_SIGN = LazyPattern(r"^[+\-−×*/=]\s*(?=[^\W\d_])")
# A movement row's closing words naming the span every column already dates ("Granted during the period",
# "Profit for the year"): a question dating the figure itself ("shares granted in 2019") leaves them out.
_SPAN_OF_THE_COLUMNS = LazyPattern(r"\s+(?:during|for|in)\s+the\s+(?:fiscal\s+|financial\s+)?(?:year|period)$")
# A company's legal form, which questions usually leave out ("Kirin Holdings" for "Kirin Holdings Inc.").
_LEGAL_FORM = LazyPattern(
    r"^(?:株式会社|\(株\))\s*|\s*(?:株式会社|\(株\)|股份有限公司|有限公司)$"
    r"|[\s,]+(?:inc\.?|incorporated|corp\.?|corporation|co\.?,?\s*ltd\.?|ltd\.?|limited|plc|ag|s\.a\.|n\.v\.|se|gmbh)$")

# A name that defines its short name ('Apple Inc. ("Apple")', 'Toyota Motor Corporation (the "Company")',
# トヨタ自動車株式会社（以下「当社」という。）, 本公司（以下简称“公司”）): the short name is that name's too.
_DEFINED_SHORT_NAME = LazyPattern(
    r"\(\s*(?:the\s+|hereinafter(?:\s+referred\s+to\s+as)?\s*,?\s*|以下\s*[、,]?\s*(?:简称|簡稱|称|稱)?\s*)?"
    r"[\"“「『]([^\"“”「」『』()]{1,40})[\"”」』]\s*(?:という)?\s*。?\s*\)")


_written = [0]  # how many times this process stored facts under open codes (see ``vocabulary_generation``)


def note_open_codes_written() -> None:
    """Say that facts under open codes were stored: services built before learn them on their next request."""
    _written[0] += 1


def vocabulary_generation() -> int:
    """A number that changes whenever this process stores facts under open codes."""
    return _written[0]


def matching_form(text: str) -> str:
    """A label as it is matched and coded: NFKC, lower case, one space between words, no ``#``."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).lower().replace("#", " ")).strip()


# Headers over a label column saying its labels are not line items ("Name", "Segment", "Country"):
# their unknown labels are names of things, never metrics.
NOT_LINE_ITEM_HEADERS = frozenset({
    "name", "names", "segment", "segments", "entity", "entities", "division", "divisions", "business", "region",
    "regions", "country", "countries", "company", "companies", "customer", "customers", "channel", "channels",
    "product", "products", "brand", "brands", "store", "stores", "subsidiary", "subsidiaries", "location",
    "セグメント", "事業", "地域", "会社", "会社名", "国", "分部", "板块", "业务", "地区", "公司", "渠道", "客户",
    "产品",
})


def open_metric_code(label: str, *, longest: int = MAX_LABEL_CHARS) -> str | None:
    """The metric code of a row label the glossary does not name; None for text that is no label.

    A label holds at least one letter and at most ``MAX_LABEL_CHARS`` characters (a sentence
    in a label column is not a line item); ``longest``: a row's own label may hold up to
    ``MAX_ROW_LABEL_CHARS``, so long as it is one phrase (no sentence break beyond ``MAX_LABEL_CHARS``).
    """
    form = matching_form(label)
    if not form or len(form) > longest or not _LETTER.search(form):
        return None
    if len(form) > MAX_LABEL_CHARS and _SENTENCE_BREAK.search(form):
        return None
    return METRIC_PREFIX + form


def open_entity_code(company: str) -> str | None:
    """The entity code of a company a document states it is about; None for an empty name.

    The legal form is left out of the code (``キリンホールディングス株式会社`` and
    ``キリンホールディングス`` are one company); the name as stated stays among its aliases.
    """
    form = _LEGAL_FORM.sub("", matching_form(company)).strip()
    if not form or len(form) > MAX_LABEL_CHARS or not _LETTER.search(form):
        return None
    return ENTITY_PREFIX + form


def without_legal_form(company: str) -> str:
    """A company's name without its legal form (``キリンホールディングス株式会社`` -> ``キリンホールディングス``)."""
    return _LEGAL_FORM.sub("", matching_form(company)).strip()


def is_open_code(code: str) -> bool:
    """Whether a metric or entity code was derived from a document's words."""
    return code.startswith((METRIC_PREFIX, ENTITY_PREFIX))


def stated_share_label(row: str, share: str) -> str:
    """The label of a row's share stated beside its amount (``net sales: APAC, percent of total``): the share's
    words close the row's own, so a question naming the row alone names the amount."""
    return f"{row}, {share}"


def label_of(code: str) -> str:
    """The words an open code was derived from (the code itself for a glossary code)."""
    for prefix in (METRIC_PREFIX, ENTITY_PREFIX):
        if code.startswith(prefix):
            return code[len(prefix):]
    return code


def _aliases(entity: bool, label: str) -> set[str]:
    """The spellings of a label a question may use: as written, without its punctuation, without a legal form."""
    label = _LEADING_SIGN.sub("", label)
    forms = {label, _LOOSE.sub(" ", label).strip()}
    for defined in _DEFINED_SHORT_NAME.finditer(label):  # the name without its definition, and the short name
        forms |= {matching_form(label[:defined.start()] + label[defined.end():]), matching_form(defined.group(1))}
    if entity:
        forms |= {_LEGAL_FORM.sub("", form).strip() for form in list(forms)}
    else:  # an English label in the other number ("operating leases" for a row "Operating lease")
        forms |= {_other_number(form) for form in list(forms) if form.isascii() and form[-1:].isalpha()}
    return {form for form in forms if len(form) >= 2}


def _without_span(label: str) -> str:
    """A row label without its closing span words (``granted during the period``: ``granted``); else the label."""
    return _SPAN_OF_THE_COLUMNS.sub("", label)


def _item(label: str) -> str:
    """A label read under its section heading (``net sales: malaysia``) without the heading: ``malaysia``."""
    return label.rpartition(": ")[2]


def _other_number(label: str) -> str:
    """``operating lease`` <-> ``operating leases`` (the last word only; ``-ss`` words keep their form)."""
    if label.endswith("ss"):
        return label
    return label[:-1] if label.endswith("s") else label + "s"


def with_open_terms(glossary: Glossary, codes: Iterable[tuple[str, str]]) -> Glossary:
    """The glossary plus the open metrics and entities of ``codes`` (``(metric_code, entity)`` pairs).

    Glossary aliases win: a spelling the glossary already gives a term stays that term's.
    Returns the glossary itself when there is nothing to add.
    """
    new: dict[SlotKind, dict[str, Term]] = {SlotKind.METRIC: {}, SlotKind.ENTITY: {}}
    for metric, entity in codes:
        for kind, code, prefix in ((SlotKind.METRIC, metric, METRIC_PREFIX), (SlotKind.ENTITY, entity, ENTITY_PREFIX)):
            if code.startswith(prefix) and code not in glossary.terms[kind]:
                label = label_of(code)
                new[kind][code] = Term(code, {"en": label, "zh": label, "ja": label},
                                       geography=None, additive=False)
    if not any(new.values()):
        return glossary
    terms = {kind: dict(section) for kind, section in glossary.terms.items()}
    aliases = dict(glossary.aliases)
    items = Counter(_item(label_of(code)) for code in new[SlotKind.METRIC])
    spans = Counter(_without_span(label_of(code)) for code in new[SlotKind.METRIC])
    for kind, section in new.items():
        for code, _term in sorted(section.items()):
            terms[kind][code] = _term
            label = label_of(code)
            for alias in _aliases(kind is SlotKind.ENTITY, label):
                aliases.setdefault(alias, (kind, code))
            if kind is SlotKind.METRIC and _item(label) != label and items[_item(label)] == 1:
                for alias in _aliases(False, _item(label)):  # the row's own words, when no other row has them
                    aliases.setdefault(alias, (kind, code))
            short = _without_span(label)
            if kind is SlotKind.METRIC and short != label and spans[short] == 1 and items[short] == 0:
                for alias in _aliases(False, short):  # the row without its span words, when no other row reads so
                    aliases.setdefault(alias, (kind, code))
    periods = [p.regex.pattern for p in glossary.period_patterns]
    return replace(glossary, terms=terms, aliases=aliases,
                   _slot_regex=slot_regex(periods, glossary.period_first_chars, aliases),
                   _period_cache={})
