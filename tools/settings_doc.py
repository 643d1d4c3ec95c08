"""Writes docs/configuration.md from the ``Settings`` model: every variable, its type, default and description.

Run ``python -m tools.settings_doc`` after changing ``shared/ragspine/settings.py``;
``tests/unit/docs/test_configuration_doc.py`` fails while the page and the model differ.
"""

from __future__ import annotations

import ast
import enum
import inspect
import sys
import types
import typing
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo

from ragspine.settings import Settings

PAGE = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"
REGENERATE = "python -m tools.settings_doc"
PREFIX = "RAGSPINE_"
MIB = 1024 * 1024

# Sections by the first matching name prefix; a setting matching none goes under "Service".
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Answers: models and the FAQ", ("llm_", "openai_", "bedrock_model", "faq_")),
    ("Retrieval", ("embed", "vector_cache", "bedrock_embedding", "retrieval_", "rerank_", "opensearch_")),
    ("Ingestion", ("ingest_", "staging_bucket", "knowledge_ingest_")),
    ("Knowledge Gateway", ("knowledge_",)),
    ("Workflows", ("dify_", "workflow", "n8n_")),
    ("AWS resources and secrets", ("facts_table", "aws_region", "dynamodb_", "api_key_pepper", "secrets_")),
)
SERVICE = "Service"

_SCALARS: dict[Any, str] = {
    str: "text", int: "integer", float: "number", bool: "boolean", Path: "path",
    date: "date (YYYY-MM-DD)", SecretStr: "secret text",
}


def section_of(name: str) -> str:
    """The section a setting is listed under."""
    for title, prefixes in SECTIONS:
        if name.startswith(prefixes):
            return title
    return SERVICE


def _choices(values: list[str]) -> str:
    return "one of " + ", ".join(f"`{value}`" for value in values)


def type_text(annotation: Any) -> str:
    """A reader's name for a field's type: ``integer``, ``one of `a`, `b```, ``path, optional``."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [arg for arg in args if arg is not type(None)]
        text = " or ".join(type_text(arg) for arg in inner)
        return f"{text}, optional" if len(inner) < len(args) else text
    if typing.get_origin(annotation) is typing.Literal:
        return _choices([str(arg) for arg in args])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _choices([str(member.value) for member in annotation])
    return _SCALARS.get(annotation, getattr(annotation, "__name__", str(annotation)))


def bounds_text(field: FieldInfo) -> str:
    """The constraints pydantic checks: ``1 to 65535``, ``> 0``, ``matches ^...$``."""
    found: dict[str, Any] = {}
    for item in field.metadata:
        for key in ("ge", "gt", "le", "lt", "pattern"):
            value = getattr(item, key, None)
            if value is not None:
                found[key] = value
    parts = []
    low = ("≥", found["ge"]) if "ge" in found else ((">", found["gt"]) if "gt" in found else None)
    high = ("≤", found["le"]) if "le" in found else (("<", found["lt"]) if "lt" in found else None)
    if low and high and low[0] == "≥" and high[0] == "≤":
        parts.append(f"{_number(low[1])} to {_number(high[1])}")
    else:
        parts.extend(f"{bound[0]} {_number(bound[1])}" for bound in (low, high) if bound)
    if "pattern" in found:
        parts.append(f"matches `{found['pattern']}`")
    return "; ".join(parts)


def _number(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= MIB and value % MIB == 0:
        return f"{value // MIB} MiB"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def default_text(field: FieldInfo) -> str:
    """The default as it would be written in the environment (``unset`` when there is none)."""
    value = field.get_default(call_default_factory=True)
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, enum.Enum):
        return f"`{value.value}`"
    if isinstance(value, int) and value >= MIB and value % MIB == 0:
        return f"`{value}` ({value // MIB} MiB)"
    return f"`{value}`" if str(value) else "empty"


def setting_descriptions() -> dict[str, str]:
    """Each setting's description: its ``Field(description=...)``, else the docstring under the field.

    Read from the model's source here, for this page, not when the model is built: pydantic's
    ``use_attribute_docstrings`` would parse the source at every import, about 30 ms of every cold start.
    """
    tree = ast.parse(Path(inspect.getfile(Settings)).read_text(encoding="utf-8"))
    body = next(node.body for node in tree.body if isinstance(node, ast.ClassDef) and node.name == Settings.__name__)
    docstrings = {field.target.id: inspect.cleandoc(doc.value.value)
                  for field, doc in zip(body, body[1:], strict=False)
                  if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
                  and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                  and isinstance(doc.value.value, str)}
    return {name: field.description or docstrings.get(name, "") for name, field in Settings.model_fields.items()}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render() -> str:
    """The whole page, from the model as it is now."""
    rows: dict[str, list[str]] = {title: [] for title in (SERVICE, *(title for title, _ in SECTIONS))}
    descriptions = setting_descriptions()
    for name, field in Settings.model_fields.items():
        kind = type_text(field.annotation)
        bounds = bounds_text(field)
        if bounds:
            kind = f"{kind} ({bounds})"
        rows[section_of(name)].append(
            f"| `{PREFIX}{name.upper()}` | {_cell(kind)} | {_cell(default_text(field))} "
            f"| {_cell(descriptions[name])} |")
    lines = [
        "# Configuration",
        "",
        f"<!-- Generated from shared/ragspine/settings.py by `{REGENERATE}`; edit the model, not this page. -->",
        "",
        f"Every setting is an environment variable with the `{PREFIX}` prefix, read once at start-up by",
        "`Settings` (`shared/ragspine/settings.py`, the only place that reads the environment). An invalid",
        "value stops the process with a message naming the variable. `ragspine` commands read the same",
        "variables as the service; on AWS, `template.yaml` sets them per function.",
        "",
        "Embedded state lives under the data folder (`RAGSPINE_DATA_DIR`): `facts.db`, `chunks.db`,",
        "`vectors.db`, `operations.db`, `workflows.db`, `knowledge.db`. Point two instances at two folders",
        "(and two ports) to run them side by side; delete it to start fresh.",
    ]
    for title, table in rows.items():
        if not table:
            continue
        lines += ["", f"## {title}", "", "| variable | type | default | description |", "| --- | --- | --- | --- |"]
        lines += table
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the page (or, with ``--check``, exit 1 when it differs from the model)."""
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in args:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} differs from the Settings model; run `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
