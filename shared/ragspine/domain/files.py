"""The files of a domain folder: where the folder is, and each file read, checked unless its seal vouches for it."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine import parsed_yaml
from ragspine.config_loader import load_yaml

# Re-exported: the file names are read from here by the engine and its commands.
from ragspine.domain.file_names import DOMAIN as DOMAIN
from ragspine.domain.file_names import FAQ as FAQ
from ragspine.domain.file_names import GLOSSARY as GLOSSARY
from ragspine.domain.file_names import INTENT as INTENT
from ragspine.domain.file_names import LIBRARIES as LIBRARIES
from ragspine.domain.file_names import SCREENING as SCREENING
from ragspine.domain.seal import vouches_for
from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from ragspine.domain import checks, packs
else:
    # The checks load the pydantic schemas: only a file no seal vouches for needs them.
    checks = LazyModule("ragspine.domain.checks")
    packs = LazyModule("ragspine.domain.packs")  # and their marks: only a glossary that includes a pack reads them


def shipped_domains_dir() -> Path:
    """The folder holding the example domains shipped with the package."""
    return Path(str(resources.files("ragspine") / "shipped_domains"))


@lru_cache(maxsize=1)
def default_domain_dir() -> Path:
    """The shipped domain named by ``shipped_domains/default.yaml`` (the demo company).

    Which folder a process serves is the composition root's choice (``bootstrap.domain_dir``);
    this is the folder a reader uses when it is given none.
    """
    shipped = shipped_domains_dir()
    return shipped / str(load_yaml(shipped / "default.yaml")["default"])


def engine_config(name: str) -> Path:
    """A configuration file of the engine itself (security rules, default period spellings)."""
    return Path(str(resources.files("ragspine") / "config" / name))


def read_file(path: Path, kind: str | None = None) -> dict[str, Any]:
    """The validated mapping of one domain file (``kind``: which schema, default the file name).

    A file its folder's seal vouches for (checked as it is now, by these rules) is parsed without
    being checked again; any other is checked against its schema and the engine's rules.

    Raises:
        ConfigurationError: the file is missing or invalid; the message lists every problem.
    """
    sealed = _sealed_data(path) if kind in (None, path.name) else None
    if sealed is not None:
        return sealed
    checked = checks.check_file(path.parent, path.name, kind=kind)
    if checked.data is None:
        raise ConfigurationError(f"{path} is invalid: " + "; ".join(map(str, checked.problems))
                                 + f" (run: ragspine domain check {path.parent})")
    return checked.data


def _sealed_data(path: Path) -> dict[str, Any] | None:
    """The mapping of ``path`` when its folder's seal vouches for it (as ``check_file`` builds it), else None."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not vouches_for(path.parent, path.name, text):
        return None
    parsed = parsed_yaml.load(path, text)  # its parsed copy when the folder holds a current one
    if not isinstance(parsed, dict):
        return None
    data: dict[str, Any] = parsed
    if path.name == GLOSSARY:
        for pack in _sealed_packs(path.parent):
            pack_file = packs.pack_path(pack)
            if pack_file is not None:  # sealed: every included pack exists and passed the check
                data = packs.merge_pack(data, parsed_yaml.load(pack_file, pack_file.read_text(encoding="utf-8")))
    return data


def _sealed_packs(folder: Path) -> list[str]:
    """The packs a sealed folder's ``domain.yaml`` includes (read as ``included_packs`` reads it, from its
    parsed copy when the folder holds a current one)."""
    try:
        data = parsed_yaml.load(folder / DOMAIN, (folder / DOMAIN).read_text(encoding="utf-8"))
    except Exception:  # noqa: BLE001 - a missing or broken domain.yaml is reported by its own check
        return []
    include = data.get("include") if isinstance(data, dict) else None
    return [str(n) for n in include] if isinstance(include, list) else []
