"""A free-text workflow description and the inputs the scaffolder derives from it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.errors import WorkflowInvalidError

# Dify resolves selectors with this variable-name shape; anything else would not re-import.
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,29}")
_PLACEHOLDER = re.compile(r"\{\{?\s*([A-Za-z_][A-Za-z0-9_]{0,29})\s*\}?\}")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
INPUT_KINDS = ("text-input", "paragraph", "select", "number")
MAX_INPUTS = 10
DEFAULT_LABELS = {"zh": "输入", "ja": "入力", "ko": "입력", "en": "Input"}


@dataclass(frozen=True, slots=True)
class InputSpec:
    """One start-node variable: Dify ``variable``, ``label``, ``type`` and ``required``."""

    name: str
    label: str
    kind: str = "paragraph"
    required: bool = True
    max_length: int = 4000


@dataclass(frozen=True, slots=True)
class Description:
    """What the user wants the workflow to do, in their words, plus the inputs it takes."""

    text: str
    name: str
    language: str
    inputs: tuple[InputSpec, ...]


def detect_language(text: str) -> str:
    """``ja`` when kana appear, ``zh`` for other Han text, ``ko`` for Hangul, else ``en``."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    if _HANGUL.search(text):
        return "ko"
    return "en"


def _name_from(text: str) -> str:
    first = _PLACEHOLDER.sub(lambda m: m.group(1), text.strip().splitlines()[0].strip())
    # Names are for display; 40 characters keeps them readable in the Dify app list.
    return first[:40].rstrip(" .。．、,:：") or "workflow"


def _inputs_from_placeholders(text: str, language: str) -> tuple[InputSpec, ...]:
    names: list[str] = []
    for match in _PLACEHOLDER.finditer(text):
        if match.group(1) not in names:
            names.append(match.group(1))
    if not names:
        return (InputSpec(name="query", label=DEFAULT_LABELS.get(language, "Input")),)
    return tuple(InputSpec(name=n, label=n) for n in names[:MAX_INPUTS])


def description_from_text(text: str) -> Description:
    """Read a free-text description; ``{{name}}`` placeholders become inputs, else one ``query``.

    Raises:
        WorkflowInvalidError: the text is empty.
    """
    stripped = text.strip()
    if not stripped:
        raise WorkflowInvalidError("the description is empty", pointer="")
    language = detect_language(stripped)
    return Description(text=stripped, name=_name_from(stripped), language=language,
                       inputs=_inputs_from_placeholders(stripped, language))


def _input_from(item: Any, pointer: str) -> InputSpec:
    if isinstance(item, str):
        item = {"variable": item}
    if not isinstance(item, Mapping):
        raise WorkflowInvalidError("an input must be a name or an object", pointer=pointer)
    name = item.get("variable", item.get("name"))
    if not isinstance(name, str) or not VARIABLE_NAME.fullmatch(name):
        raise WorkflowInvalidError("input name must match [A-Za-z_][A-Za-z0-9_]{0,29}", pointer=f"{pointer}/variable")
    kind = item.get("type", "paragraph")
    if kind not in INPUT_KINDS:
        raise WorkflowInvalidError(f"input type must be one of {', '.join(INPUT_KINDS)}", pointer=f"{pointer}/type")
    label, required, max_length = item.get("label", name), item.get("required", True), item.get("max_length", 4000)
    if not isinstance(label, str):
        raise WorkflowInvalidError("label must be a string", pointer=f"{pointer}/label")
    if not isinstance(required, bool):
        raise WorkflowInvalidError("required must be a boolean", pointer=f"{pointer}/required")
    if not isinstance(max_length, int) or isinstance(max_length, bool) or not 1 <= max_length <= 100_000:
        raise WorkflowInvalidError("max_length must be an integer in 1..100000", pointer=f"{pointer}/max_length")
    return InputSpec(name=name, label=label, kind=kind, required=required, max_length=max_length)


def description_from_mapping(data: Mapping[str, Any]) -> Description:
    """Read ``{description|text, name?, language?, inputs?}`` (from JSON, YAML or TOML).

    Raises:
        WorkflowInvalidError: a field has the wrong type; the message names its JSON pointer.
    """
    key = "description" if "description" in data else "text"
    text = data.get(key)
    if not isinstance(text, str) or not text.strip():
        raise WorkflowInvalidError("description must be a non-empty string", pointer=f"/{key}")
    base = description_from_text(text)
    name, language, inputs = data.get("name", base.name), data.get("language", base.language), data.get("inputs")
    if not isinstance(name, str) or not name.strip():
        raise WorkflowInvalidError("name must be a non-empty string", pointer="/name")
    if not isinstance(language, str):
        raise WorkflowInvalidError("language must be a string", pointer="/language")
    specs = base.inputs
    if inputs is not None:
        if not isinstance(inputs, list) or not 1 <= len(inputs) <= MAX_INPUTS:
            raise WorkflowInvalidError(f"inputs must be a list of 1..{MAX_INPUTS} items", pointer="/inputs")
        specs = tuple(_input_from(item, f"/inputs/{i}") for i, item in enumerate(inputs))
        if len({s.name for s in specs}) != len(specs):
            raise WorkflowInvalidError("input names must be unique", pointer="/inputs")
    return Description(text=base.text, name=name.strip()[:40], language=language, inputs=specs)
