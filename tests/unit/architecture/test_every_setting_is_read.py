"""Every setting is read by the engine or a handler: a ``RAGSPINE_`` variable that changes nothing misleads."""

from __future__ import annotations

import re
from pathlib import Path

from ragspine.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
SETTINGS_MODULE = ROOT / "shared" / "ragspine" / "settings.py"


def _readers_text() -> str:
    files = [*(ROOT / "shared" / "ragspine").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]
    return "\n".join(f.read_text(encoding="utf-8") for f in files if f != SETTINGS_MODULE)


def test_each_setting_is_read_outside_the_settings_model() -> None:
    text = _readers_text()
    derived = SETTINGS_MODULE.read_text(encoding="utf-8")  # a property of the model (``self.x``) reads it too
    unread = [name for name in Settings.model_fields
              if not re.search(rf"\.{name}\b|[\"']{name}[\"']", text) and f"self.{name}" not in derived]
    assert unread == [], f"settings nothing reads (wire them or remove them): {unread}"


def test_the_log_level_setting_is_gone() -> None:
    assert "log_level" not in Settings.model_fields
