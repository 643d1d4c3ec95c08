"""File-level workflow actions for the CLI: read a file, run one action, render its output.

Kept apart from the Typer commands so the logic is testable without a terminal and the CLI
module stays thin. Output is deterministic text (sorted where the domain sorts, no clock).
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

import yaml

from ragspine.errors import RagspineError
from ragspine.workflows.actions import (
    analyze_source,
    compile_source,
    convert_source,
    plan_to_dict,
    preview_source,
    to_dify,
)
from ragspine.workflows.dsl import OutputFormat, normalize
from ragspine.workflows.scaffold import ScaffoldOptions

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2


class Action(enum.StrEnum):
    """What ``ragspine workflow <action> FILE`` does."""

    COMPILE = "compile"
    ANALYZE = "analyze"
    CONVERT = "convert"
    PREVIEW = "preview"


@dataclass(frozen=True, slots=True)
class FileOutput:
    """The text for stdout (or ``--out``), notes for stderr, and the exit code."""

    text: str
    notes: tuple[str, ...] = ()
    exit_code: int = EXIT_OK


def render_data(data: Any, fmt: OutputFormat) -> str:
    """A JSON-compatible value as indented JSON or block YAML (keys in the order given)."""
    if fmt is OutputFormat.JSON:
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    text: str = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=False, width=4096)
    return text


def describe_error(exc: RagspineError) -> str:
    """One line naming the error code, the message and every location (line:column or JSON pointer)."""
    where = ", ".join(f.field for f in exc.field_errors)
    return f"error [{exc.code}]: {exc.message}" + (f" (at {where})" if where else "")


def run_file(action: Action, data: bytes, *, filename: str, fmt: OutputFormat = OutputFormat.YAML,
             options: ScaffoldOptions | None = None, diagram: bool = False) -> FileOutput:
    """Run one action over a file's bytes; ``diagram`` makes a preview the Mermaid flowchart instead.

    Returns:
        The rendered result; ``exit_code`` is 1 when analyze found errors, 2 for bad input.
    """
    options = options or ScaffoldOptions()
    try:
        normalized = normalize(data, filename=filename)
        if action is Action.CONVERT:
            converted = convert_source(normalized, fmt=fmt, dsl_version=options.dsl_version)
            notes = tuple(f"not converted: {s.name} ({s.node_type}): {s.reason}"
                          for s in converted.report.skipped) + converted.report.warnings
            return FileOutput(converted.text, notes)
        source = to_dify(normalized, options)
        if action is Action.COMPILE:
            return FileOutput(render_data(plan_to_dict(compile_source(source)), fmt), source.warnings)
        if action is Action.PREVIEW:
            preview = preview_source(source)
            return FileOutput(preview.diagram if diagram else render_data(preview.to_dict(), fmt), source.warnings)
        analysis = analyze_source(source)
        return FileOutput(render_data(analysis.to_dict(), fmt), source.warnings,
                          EXIT_OK if analysis.ok else EXIT_FINDINGS)
    except RagspineError as exc:
        return FileOutput("", (describe_error(exc),), EXIT_BAD_INPUT)
