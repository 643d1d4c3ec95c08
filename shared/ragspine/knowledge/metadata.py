"""Document metadata, exactly seed 003's rules: four fields, NFC + trim, limits, the specific error codes.

Nothing is silently dropped: an unknown field is KNOWLEDGE_METADATA_FIELD_NOT_ALLOWED, more
than 4,096 serialised UTF-8 bytes (as sent, checked before the values) KNOWLEDGE_METADATA_TOO_LARGE,
a bad value KNOWLEDGE_METADATA_VALUE_INVALID.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import replace
from typing import Any

from ragspine.errors import (
    FieldError,
    MetadataFieldNotAllowedError,
    MetadataTooLargeError,
    MetadataValueInvalidError,
)
from ragspine.knowledge.model import Metadata
from ragspine.names import name_problem

STRING_FIELDS = {"category": "category", "versionLabel": "version_label", "productCode": "product_code"}
ALLOWED = (*STRING_FIELDS, "tags")
MAX_STRING = 64
MAX_TAGS = 20
MAX_TAG = 32
MAX_BYTES = 4096
_ABSENT = object()


def normalise(text: str) -> str:
    """NFC, then trimmed; case is kept."""
    return unicodedata.normalize("NFC", text).strip()


def _string(name: str, value: Any, limit: int, problems: list[FieldError]) -> str | None:
    if not isinstance(value, str):
        problems.append(FieldError(name, "must be a string"))
        return None
    text = normalise(value)
    if not 1 <= len(text) <= limit:
        problems.append(FieldError(name, f"must have 1 to {limit} characters after trimming (has {len(text)})"))
    elif (problem := name_problem(text)) is not None:
        problems.append(FieldError(name, problem))
    return text


def _tags(value: Any, problems: list[FieldError]) -> tuple[str, ...]:
    if not isinstance(value, list):
        problems.append(FieldError("metadata.tags", "must be an array of strings ([] clears the tags)"))
        return ()
    if len(value) > MAX_TAGS:
        problems.append(FieldError("metadata.tags", f"at most {MAX_TAGS} tags (has {len(value)})"))
    tags = [_string(f"metadata.tags[{i}]", tag, MAX_TAG, problems) for i, tag in enumerate(value)]
    clean = tuple(t for t in tags if t is not None)
    if len(set(clean)) != len(clean):
        problems.append(FieldError("metadata.tags", "tags must be distinct after normalisation"))
    return clean


def _check_fields(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise MetadataValueInvalidError("metadata must be an object with category, tags, versionLabel or productCode",
                                        field_errors=(FieldError("metadata", "must be an object"),))
    unknown = [key for key in body if key not in ALLOWED]
    if unknown:
        raise MetadataFieldNotAllowedError(
            f"metadata field(s) {', '.join(repr(k) for k in unknown)} not allowed: use category, tags, versionLabel "
            "or productCode", field_errors=tuple(FieldError(f"metadata.{k}", "not an allowed metadata field")
                                                 for k in unknown))
    _check_size(body)
    return body


def _check_size(body: object) -> None:
    size = len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > MAX_BYTES:
        raise MetadataTooLargeError(f"metadata serialises to {size} UTF-8 bytes; the limit is {MAX_BYTES}",
                                    field_errors=(FieldError("metadata", f"at most {MAX_BYTES} bytes"),))


def _finish(metadata: Metadata, problems: list[FieldError]) -> Metadata:
    if problems:
        summary = "; ".join(f"{p.field}: {p.message}" for p in problems)
        raise MetadataValueInvalidError(f"invalid metadata ({summary})", field_errors=tuple(problems))
    _check_size(metadata_json(metadata))
    return metadata


def parse_upload(body: Any) -> Metadata:
    """Metadata of an upload: every field optional, strings never null.

    Raises:
        MetadataFieldNotAllowedError, MetadataValueInvalidError, MetadataTooLargeError.
    """
    if body is None:
        return Metadata()
    fields = _check_fields(body)
    problems: list[FieldError] = []
    values: dict[str, Any] = {}
    for name, attribute in STRING_FIELDS.items():
        if name in fields:
            if fields[name] is None:
                problems.append(FieldError(f"metadata.{name}", "cannot be null on upload: omit it instead"))
            else:
                values[attribute] = _string(f"metadata.{name}", fields[name], MAX_STRING, problems)
    if "tags" in fields:
        values["tags"] = _tags(fields["tags"], problems)
    return _finish(Metadata(**values), problems)


def apply_patch(current: Metadata, body: Any) -> Metadata:
    """``current`` with a PATCH applied: omitted unchanged, null clears a string, ``tags: []`` clears the tags.

    Raises:
        MetadataFieldNotAllowedError, MetadataValueInvalidError (``tags: null`` too), MetadataTooLargeError.
    """
    fields = _check_fields(body)
    problems: list[FieldError] = []
    updated = current
    for name, attribute in STRING_FIELDS.items():
        value = fields.get(name, _ABSENT)
        if value is _ABSENT:
            continue
        text = None if value is None else _string(f"metadata.{name}", value, MAX_STRING, problems)
        updated = replace(updated, **{attribute: text})  # type: ignore[arg-type]
    if "tags" in fields:
        if fields["tags"] is None:
            problems.append(FieldError("metadata.tags", "cannot be null: send [] to clear the tags"))
        else:
            updated = replace(updated, tags=_tags(fields["tags"], problems))
    return _finish(updated, problems)


def metadata_json(metadata: Metadata) -> dict[str, Any]:
    """The four fields as responses carry them: null strings, [] tags."""
    return {"category": metadata.category, "tags": list(metadata.tags), "versionLabel": metadata.version_label,
            "productCode": metadata.product_code}
