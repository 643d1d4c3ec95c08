"""A cited answer as JSON: the schema an endpoint constrains the model to, and reading its reply.

Asked this way, the model writes ``{"sentences": [{"text": ..., "passage": 2}, ...]}`` where
``passage`` can only be one of the numbers the prompt gave: a small model cannot cite a passage
[7] of five or a document it made up. The passage field is each sentence's only citation, so
citation look-alikes the model still writes into ``text`` (``[3]``, ``(ACME_FY2024_MDA.docx
heading=…,para=4)``) are layout and are dropped, never read as figures. (A ``pattern`` on
``text`` would forbid them at the source, but llama-cpp-python's server then drops the whole
grammar, so the schema keeps to what every server honours.) The engine renders each sentence's
passage as the seed's citation (through ``qa/citing.py``); the text then goes through the same
language, decline and number checks as a free-text reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

SCHEMA_NAME = "cited_answer"
MAX_SENTENCES = 8
MAX_SENTENCE_CHARS = 400
# Citation look-alikes inside a sentence's text: a bare passage marker, or a bracket naming a file
# or holding a locator's "=" ("heading=…,para=4"), whose numbers would read as figures.
_MARKER = re.compile(r"\s*[\[［【]\s*\d{1,3}(?:\s*[,，、\-]\s*\d{1,3})*\s*[\]］】]")
_LOOKALIKE = re.compile(r"\s*[（(\[【][^（）()\[\]【】]*(?:[（(][^（）()]*[）)][^（）()\[\]【】]*)*"
                        r"(?:=|\.(?:docx|pptx|xlsx|pdf|md|html?|txt)\b)"
                        r"[^（）()\[\]【】]*(?:[（(][^（）()]*[）)][^（）()\[\]【】]*)*[）)\]】]", re.IGNORECASE)
# One complete sentence object, to keep what a reply cut off by max_tokens said before the cut.
_ITEM = re.compile(r'\{\s*"text"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"passage"\s*:\s*(\d+)\s*\}')
_WORD = re.compile(r"\w")
_OPEN_TEXT = re.compile(r'^\s*\{\s*"sentences"\s*:\s*\[\s*\{\s*"text"\s*:\s*"')
_SENTENCE_END = re.compile(r"[。！？!?]|\.(?=\s)")
_END = re.compile(r"[。！？!?.．]\s*$")
_CJK = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"
_CJK_END = re.compile(_CJK + "$")
_HAS_CJK = re.compile(_CJK)


def answer_schema(passages: int, numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """The JSON schema of a cited answer over ``passages`` numbered passages (1..passages, or the ``numbers`` shown)."""
    enum = list(numbers) if numbers else list(range(1, passages + 1))
    sentence = {"type": "object", "additionalProperties": False, "required": ["text", "passage"],
                "properties": {"text": {"type": "string"}, "passage": {"type": "integer", "enum": enum}}}
    return {"type": "object", "additionalProperties": False, "required": ["sentences"],
            "properties": {"sentences": {"type": "array", "minItems": 1, "maxItems": MAX_SENTENCES,
                                         "items": sentence}}}


def read_structured(reply: str, passages: int) -> str | None:
    """The reply as text with a ``[n]`` marker after each sentence, or None when it is not that JSON.

    That JSON holding no usable sentence (only ``"…"``, or cut before a first sentence ended) is "".

    A sentence whose ``passage`` is not one of 1..passages (a server that ignored the enum) gets
    no marker and is tied to a passage by its words, like an unmarked free-text sentence. A reply
    cut off mid-JSON (``max_tokens``) keeps the sentences completed before the cut.
    """
    items = _items(reply)
    if items is None:
        return None
    # From here the reply is this JSON: without a usable sentence it says nothing ("") rather than
    # being read as free text (its raw JSON would reach the user).
    parts: list[str] = []
    for text, passage in items:
        text = " ".join(_LOOKALIKE.sub("", _MARKER.sub("", text)).split())[:MAX_SENTENCE_CHARS]
        if not _WORD.search(text):
            continue
        marker = f"[{passage}]" if passage is not None and 1 <= passage <= passages else ""
        parts.append(_ended(text) + marker)
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:  # Latin sentences are spaced, CJK ones are not
        out += ("" if _CJK_END.search(_strip_marker(out)) else " ") + part
    return out


def _items(reply: str) -> list[tuple[str, int | None]] | None:
    """The (text, passage) pairs of the reply's JSON; None when the reply is not that JSON at all."""
    try:
        payload = json.loads(reply, strict=False)  # a raw line break inside a string is still that string
    except ValueError:
        if not reply.lstrip().startswith("{") or '"sentences"' not in reply:
            return None
        salvaged: list[tuple[str, int | None]] = []
        for match in _ITEM.finditer(reply):
            try:
                salvaged.append((json.loads(match.group(1), strict=False), int(match.group(2))))
            except ValueError:  # an escape the model got wrong: that sentence is lost, not the reply
                continue
        return salvaged or _cut_text(reply)
    entries = payload.get("sentences") if isinstance(payload, dict) else None
    if not isinstance(entries, list):
        return None
    items: list[tuple[str, int | None]] = []
    for entry in entries:
        text = entry.get("text") if isinstance(entry, dict) else None
        if isinstance(text, str):
            passage = entry.get("passage")
            items.append((text, passage if type(passage) is int else None))
    return items


def _cut_text(reply: str) -> list[tuple[str, int | None]] | None:
    """A reply cut inside its first sentence's text: the complete sentences of that text, never the raw JSON."""
    start = _OPEN_TEXT.search(reply)
    if start is None:
        return None
    body = reply[start.end():]
    ends = [m.end() for m in _SENTENCE_END.finditer(body)]
    try:
        return [(json.loads(f'"{body[:ends[-1]]}"', strict=False), None)] if ends else []
    except ValueError:
        return []


def _ended(text: str) -> str:
    """The sentence with an end mark, so each one stays a sentence of its own when cited."""
    if _END.search(text):
        return text
    return text + ("。" if _HAS_CJK.search(text) else ".")


def _strip_marker(text: str) -> str:
    return re.sub(r"\[\d+\]$", "", text)
