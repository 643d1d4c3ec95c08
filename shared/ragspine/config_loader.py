"""Reading the YAML configuration files shipped in ``ragspine/config``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ragspine.errors import ConfigurationError


def config_path(name: str) -> Path:
    """Path of a packaged configuration file."""
    return Path(str(resources.files("ragspine") / "config" / name))


def load_yaml(path: Path) -> dict[str, Any]:
    """Parse a YAML mapping, turning any problem into a ``ConfigurationError`` naming the file."""
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built in: a tenth of the time
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 (a safe loader)
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigurationError(f"cannot read configuration {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigurationError(f"configuration {path} must be a mapping")
    return data
