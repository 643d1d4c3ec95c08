"""knowledge_search's ``metadataFilter``, exactly seed 003: five fields, arrays of 1-20 distinct values.

Omitted means no constraint; an explicit ``[]`` is invalid (unlike PATCH ``tags: []``). Values
are normalised as document metadata is (NFC, trim), so a filter matches what was stored. The
fields are ANDed, the values of one field ORed, and ``tagsAll`` needs every value. Nothing is
dropped silently: an unknown field, a bad value and too many values each have their own code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ragspine.errors import (
    FieldError,
    MetadataFilterFieldNotAllowedError,
    MetadataTooLargeError,
    MetadataValueInvalidError,
)
from ragspine.knowledge.metadata import MAX_STRING, MAX_TAG, normalise
from ragspine.knowledge.model import Metadata

MAX_VALUES = 20
# Filter field -> the longest value a document can hold in it.
FIELDS = {"category": MAX_STRING, "tagsAny": MAX_TAG, "tagsAll": MAX_TAG, "versionLabel": MAX_STRING,
          "productCode": MAX_STRING}


@dataclass(frozen=True, slots=True)
class MetadataFilter:
    """Normalised filter values; an empty tuple is no constraint."""

    categories: tuple[str, ...] = ()
    tags_any: tuple[str, ...] = ()
    tags_all: tuple[str, ...] = ()
    version_labels: tuple[str, ...] = ()
    product_codes: tuple[str, ...] = ()

    def admits(self, metadata: Metadata) -> bool:
        """Whether a document's current metadata passes (the re-check after retrieval)."""
        tags = set(metadata.tags)
        return ((not self.categories or metadata.category in self.categories)
                and (not self.tags_any or bool(tags & set(self.tags_any)))
                and set(self.tags_all) <= tags
                and (not self.version_labels or metadata.version_label in self.version_labels)
                and (not self.product_codes or metadata.product_code in self.product_codes))


def _values(name: str, value: Any, problems: list[FieldError]) -> tuple[str, ...]:
    where = f"metadataFilter.{name}"
    if not isinstance(value, list):
        problems.append(FieldError(where, "must be an array of 1 to 20 strings (omit the field for no constraint)"))
        return ()
    if not value:
        problems.append(FieldError(where, "must not be empty: omit the field for no constraint"))
        return ()
    clean: list[str] = []
    for i, item in enumerate(value):
        text = normalise(item) if isinstance(item, str) else None
        if text is None:
            problems.append(FieldError(f"{where}[{i}]", "must be a string"))
        elif not 1 <= len(text) <= FIELDS[name]:
            problems.append(FieldError(f"{where}[{i}]", f"must have 1 to {FIELDS[name]} characters after trimming"))
        elif any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in text):
            problems.append(FieldError(f"{where}[{i}]", "must not contain control characters"))
        else:
            clean.append(text)
    if len(set(clean)) != len(clean):
        problems.append(FieldError(where, "values must be distinct after normalisation (NFC, trim)"))
    return tuple(clean)


def parse_filter(body: Any) -> MetadataFilter:
    """The filter of a search request.

    Raises:
        MetadataFilterFieldNotAllowedError: a field other than the five.
        MetadataTooLargeError: a field with more than 20 values.
        MetadataValueInvalidError: not an object, not an array, ``[]``, or a bad or repeated value.
    """
    if not isinstance(body, dict):
        raise MetadataValueInvalidError("metadataFilter must be an object (omit it for no constraint)",
                                        field_errors=(FieldError("metadataFilter", "must be an object"),))
    unknown = [key for key in body if key not in FIELDS]
    if unknown:
        raise MetadataFilterFieldNotAllowedError(
            f"metadataFilter field(s) {', '.join(repr(k) for k in unknown)} not allowed: use "
            f"{', '.join(FIELDS)}", field_errors=tuple(FieldError(f"metadataFilter.{k}", "not an allowed filter field")
                                                       for k in unknown))
    crowded = [k for k, v in body.items() if isinstance(v, list) and len(v) > MAX_VALUES]
    if crowded:
        raise MetadataTooLargeError(
            f"metadataFilter field(s) {', '.join(crowded)} have more than {MAX_VALUES} values",
            field_errors=tuple(FieldError(f"metadataFilter.{k}", f"at most {MAX_VALUES} values") for k in crowded))
    problems: list[FieldError] = []
    values = {name: _values(name, body[name], problems) for name in FIELDS if name in body}
    if problems:
        summary = "; ".join(f"{p.field}: {p.message}" for p in problems[:10])
        raise MetadataValueInvalidError(f"invalid metadataFilter ({summary})", field_errors=tuple(problems))
    return MetadataFilter(categories=values.get("category", ()), tags_any=values.get("tagsAny", ()),
                          tags_all=values.get("tagsAll", ()), version_labels=values.get("versionLabel", ()),
                          product_codes=values.get("productCode", ()))
