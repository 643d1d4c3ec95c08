"""Building blocks shared by generated and converted documents: node wrappers and default features."""

from __future__ import annotations

from typing import Any

# What a fresh Dify workflow app carries under ``workflow.features`` (every feature off).
DEFAULT_FEATURES: dict[str, Any] = {
    "file_upload": {"enabled": False, "image": {"enabled": False, "number_limits": 3,
                                                "transfer_methods": ["local_file", "remote_url"]}},
    "opening_statement": "",
    "retriever_resource": {"enabled": False},
    "sensitive_word_avoidance": {"enabled": False},
    "speech_to_text": {"enabled": False},
    "suggested_questions": [],
    "suggested_questions_after_answer": {"enabled": False},
    "text_to_speech": {"enabled": False, "language": "", "voice": ""},
}
COLUMN_WIDTH = 300
ROW_Y = 282


def node_wrapper(node_id: str, data: dict[str, Any], column: int = 0, *,
                 position: tuple[float, float] | None = None) -> dict[str, Any]:
    """Dify's node wrapper around ``data``, laid out left to right by column unless a position is given."""
    x, y = (_plain(v) for v in position) if position is not None else (80 + COLUMN_WIDTH * column, ROW_Y)
    return {"id": node_id, "type": "custom", "data": data, "position": {"x": x, "y": y},
            "positionAbsolute": {"x": x, "y": y}, "width": 244, "height": 90,
            "sourcePosition": "right", "targetPosition": "left", "selected": False}


def _plain(value: float) -> int | float:
    """Whole numbers as ints, as Dify writes positions."""
    return int(value) if float(value).is_integer() else value
