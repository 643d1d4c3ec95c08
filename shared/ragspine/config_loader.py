"""Reading the YAML configuration files shipped in ``ragspine/config``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine import parsed_yaml
from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    import yaml
else:
    yaml = LazyModule("yaml")  # for its error type: a file with a current parsed copy needs no PyYAML


def config_path(name: str) -> Path:
    """Path of a packaged configuration file."""
    return Path(str(resources.files("ragspine") / "config" / name))


def load_yaml(path: Path) -> dict[str, Any]:
    """Parse a YAML mapping, turning any problem into a ``ConfigurationError`` naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigurationError(f"cannot read configuration {path}: {exc}") from exc
    try:
        data = parsed_yaml.load(path, text)  # its parsed copy (ragspine.parsed_yaml), else parsed now
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"cannot read configuration {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigurationError(f"configuration {path} must be a mapping")
    return data
