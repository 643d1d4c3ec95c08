"""Input normalisation: JSON, YAML or TOML text (or file bytes) into one JSON-compatible mapping.

Free text that is not a structured document becomes a :class:`Description`. Parse errors
carry a 1-based line and column; wrong types carry a JSON pointer.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ragspine.workflows.dsl.description import Description, description_from_mapping, description_from_text
from ragspine.workflows.errors import WorkflowInvalidError, WorkflowParseError, WorkflowTooLargeError

# Dify refuses DSL files over 10 MB on import; we hold ourselves to the same bound.
MAX_INPUT_BYTES = 10 * 1024 * 1024
# Alias expansion is how a tiny YAML document becomes gigabytes ("billion laughs").
MAX_VALUES = 2_000_000
# Real DSL documents nest about 15 levels; the cap keeps every later recursive walk safe.
MAX_DEPTH = 100
_EXTENSIONS = {".json": "json", ".yml": "yaml", ".yaml": "yaml", ".toml": "toml", ".txt": "text", ".md": "text"}
_DSL_KEYS = ("app", "workflow", "version", "kind", "dependencies", "model_config", "nodes", "connections")
_YAML_START = re.compile(r"^(---|%YAML|[\"']?(" + "|".join(_DSL_KEYS) + r")[\"']?\s*:)")
_YAML_KEY = re.compile(r"^[\"']?[A-Za-z_][\w-]*[\"']?\s*:(\s|$)")
_TOML_START = re.compile(r"^(\[[\w.\"' -]+\]|[A-Za-z_][\w-]*\s*=\s*\S)")
_TOML_POS = re.compile(r"at line (\d+), column (\d+)")
_KNOWN_KEYS = frozenset((*_DSL_KEYS, "description", "text", "name", "inputs"))


class InputFormat(enum.StrEnum):
    """How to read the input; AUTO guesses from the file name, then from the text."""

    AUTO = "auto"
    JSON = "json"
    YAML = "yaml"
    TOML = "toml"
    TEXT = "text"


class DocumentKind(enum.StrEnum):
    """What a normalised mapping is."""

    DIFY = "dify"
    N8N = "n8n"
    DESCRIPTION = "description"


@dataclass(frozen=True, slots=True)
class NormalizedInput:
    """The result of normalisation: a mapping (Dify DSL or n8n) or a description."""

    fmt: InputFormat
    kind: DocumentKind
    mapping: dict[str, Any]
    description: Description | None = None


def detect_kind(mapping: Mapping[str, Any]) -> DocumentKind:
    """Classify a mapping as Dify DSL, n8n workflow JSON or a description.

    Raises:
        WorkflowInvalidError: none of the three shapes fits.
    """
    if isinstance(mapping.get("nodes"), list) and isinstance(mapping.get("connections"), Mapping):
        return DocumentKind.N8N
    if any(k in mapping for k in ("app", "workflow", "model_config")) or mapping.get("kind") == "app":
        return DocumentKind.DIFY
    if isinstance(mapping.get("description", mapping.get("text")), str):
        return DocumentKind.DESCRIPTION
    raise WorkflowInvalidError("not a Dify DSL (app/workflow), an n8n workflow (nodes/connections) "
                               "or a description (description/text)", pointer="")


def _decode(data: bytes) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise WorkflowTooLargeError(f"input is {len(data)} bytes; the limit is {MAX_INPUT_BYTES}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise WorkflowParseError("input is not UTF-8", fmt="text", line=line, column=column) from exc


def _expanded_size(value: Any, sizes: dict[int, int], depth: int = 0) -> int:
    """How many values ``value`` expands to, memoised per object so shared (aliased) parts cost once."""
    if not isinstance(value, Mapping | list | tuple):
        return 1
    if depth > MAX_DEPTH:
        raise WorkflowTooLargeError(f"the document is nested more than {MAX_DEPTH} levels deep")
    if id(value) not in sizes:
        children = value.values() if isinstance(value, Mapping) else value
        sizes[id(value)] = 1 + sum(_expanded_size(child, sizes, depth + 1) for child in children)
    return sizes[id(value)]


def _to_json(value: Any, pointer: str) -> Any:
    """Recursively make YAML/TOML values JSON-compatible (string keys, ISO dates, finite floats)."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key).lower() if isinstance(key, bool) else str(key)
            out[name] = _to_json(item, f"{pointer}/{escape_pointer(name)}")
        return out
    if isinstance(value, list | tuple):
        return [_to_json(item, f"{pointer}/{i}") for i, item in enumerate(value)]
    if isinstance(value, float) and not math.isfinite(value):
        raise WorkflowInvalidError("NaN and infinity are not JSON values", pointer=pointer)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise WorkflowInvalidError(f"unsupported value of type {type(value).__name__}", pointer=pointer)


def escape_pointer(token: str) -> str:
    """Escape one JSON-pointer reference token (RFC 6901: ``~`` then ``/``)."""
    return token.replace("~", "~0").replace("/", "~1")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise WorkflowParseError(exc.msg, fmt="json", line=exc.lineno, column=exc.colno) from exc
    except ValueError as exc:
        raise WorkflowParseError(str(exc), fmt="json") from exc


def _parse_yaml(text: str) -> Any:
    import yaml

    # libyaml's loader is about ten times faster and builds the same values; aliases are
    # bounded afterwards by _expanded_size, so the loader needs no hooks of its own.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise WorkflowParseError(str(exc.problem or exc.context), fmt="yaml", line=line, column=column) from exc
    except yaml.YAMLError as exc:
        raise WorkflowParseError(str(exc), fmt="yaml") from exc


def _parse_toml(text: str) -> Any:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11 exposes the position only in the message text.
        found = _TOML_POS.search(str(exc))
        line, column = (int(found.group(1)), int(found.group(2))) if found else (None, None)
        raise WorkflowParseError(str(exc), fmt="toml", line=line, column=column) from exc


_PARSERS = {InputFormat.JSON: _parse_json, InputFormat.YAML: _parse_yaml, InputFormat.TOML: _parse_toml}


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line.strip()
    return ""


def _guess(text: str) -> InputFormat:
    first = _first_line(text)
    if first.startswith(("{", "[")) and not _TOML_START.match(first):
        return InputFormat.JSON
    if _YAML_START.match(first):
        return InputFormat.YAML
    if _TOML_START.match(first):
        return InputFormat.TOML
    if _YAML_KEY.match(first):
        # Could be YAML or prose like "Goal: summarise"; only known keys make it a document.
        try:
            loaded = _parse_yaml(text)
        except WorkflowParseError:
            return InputFormat.TEXT
        known = isinstance(loaded, dict) and bool(_KNOWN_KEYS & set(map(str, loaded)))
        return InputFormat.YAML if known else InputFormat.TEXT
    return InputFormat.TEXT


def parse_mapping(text: str, fmt: InputFormat) -> dict[str, Any]:
    """Parse structured text of a known format into a JSON-compatible mapping.

    Raises:
        WorkflowParseError: the text is not valid in ``fmt`` (with line and column).
        WorkflowInvalidError: the top level is not an object, or a value is not JSON-compatible.
    """
    try:
        loaded = _PARSERS[fmt](text)
        if not isinstance(loaded, dict):
            raise WorkflowInvalidError(f"the top level must be an object, not {type(loaded).__name__}", pointer="")
        # YAML aliases share objects, so a small document can expand into billions of values.
        if _expanded_size(loaded, {}) > MAX_VALUES:
            raise WorkflowTooLargeError(f"the document expands to more than {MAX_VALUES} values")
        result: dict[str, Any] = _to_json(loaded, "")
    except RecursionError as exc:
        raise WorkflowTooLargeError("the document is nested too deeply") from exc
    return result


def normalize(source: str | bytes, *, fmt: InputFormat = InputFormat.AUTO,
              filename: str | None = None) -> NormalizedInput:
    """Turn text or file bytes into a Dify/n8n mapping or a :class:`Description`.

    Args:
        source: the text, or a file's raw bytes (UTF-8, BOM allowed).
        fmt: force a format; AUTO uses the file extension, then the text's first line.
        filename: optional original file name, used only for its extension.

    Raises:
        WorkflowTooLargeError: more than 10 MB.
        WorkflowParseError: malformed JSON/YAML/TOML, or bytes that are not UTF-8.
        WorkflowInvalidError: a structured document of an unknown shape or wrong types.
    """
    text = _decode(source) if isinstance(source, bytes) else source
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise WorkflowTooLargeError(f"input exceeds {MAX_INPUT_BYTES} bytes")
    if fmt is InputFormat.AUTO and filename:
        fmt = InputFormat(_EXTENSIONS.get(PurePath(filename).suffix.lower(), "auto"))
    if fmt is InputFormat.AUTO:
        fmt = _guess(text)
    if fmt is InputFormat.TEXT:
        described = description_from_text(text)
        return NormalizedInput(fmt=fmt, kind=DocumentKind.DESCRIPTION, mapping={"description": described.text},
                               description=described)
    mapping = parse_mapping(text, fmt)
    kind = detect_kind(mapping)
    from_mapping = description_from_mapping(mapping) if kind is DocumentKind.DESCRIPTION else None
    return NormalizedInput(fmt=fmt, kind=kind, mapping=mapping, description=from_mapping)
