"""The files of a domain folder: where the folder is, and each file read, checked unless its seal vouches for it."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
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
from ragspine.domain.seal import sealed_files, vouches_for
from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ragspine.domain import checks, packs
else:
    # The checks load the pydantic schemas: only a file no seal vouches for needs them.
    checks = LazyModule("ragspine.domain.checks")
    packs = LazyModule("ragspine.domain.packs")  # and their marks: only a glossary that includes a pack reads them


# Within ``one_reading``: each folder read so far, and its domain files when its seal vouches for them all.
_READING: ContextVar[dict[Path, dict[str, str] | None] | None] = ContextVar("domain_reading", default=None)


@contextmanager
def one_reading() -> Iterator[None]:
    """Read each domain folder once within: its files and its seal, checked against each other once.

    Building the services reads a folder's files one by one (the glossary, the profile, screening,
    intent, FAQ), and each read of a sealed file otherwise reads and hashes the whole folder again to
    know that it is still the sealed one (domain.yaml six times or more). Within a reading, a sealed
    folder's files are those read with its seal the first time: the services built in it see one
    version of the folder. A folder no seal vouches for is checked file by file, as outside.
    """
    token = _READING.set({})
    try:
        yield
    finally:
        _READING.reset(token)


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


def _sealed_text(path: Path) -> str | None:
    """The text of ``path`` when its folder's seal vouches for it, else None (read once within ``one_reading``)."""
    reading = _READING.get()
    if reading is not None:
        if path.parent not in reading:
            reading[path.parent] = sealed_files(path.parent)
        files = reading[path.parent]
        return files.get(path.name) if files is not None else None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if vouches_for(path.parent, path.name, text) else None


def _sealed_data(path: Path) -> dict[str, Any] | None:
    """The mapping of ``path`` when its folder's seal vouches for it (as ``check_file`` builds it), else None."""
    text = _sealed_text(path)
    if text is None:
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
        # Only a sealed glossary's folder is asked: within a reading, its domain.yaml is the one read with the seal.
        text = _sealed_text(folder / DOMAIN) if _READING.get() is not None else None
        text = text if text is not None else (folder / DOMAIN).read_text(encoding="utf-8")
        data = parsed_yaml.load(folder / DOMAIN, text)
    except Exception:  # noqa: BLE001 - a missing or broken domain.yaml is reported by its own check
        return []
    include = data.get("include") if isinstance(data, dict) else None
    return [str(n) for n in include] if isinstance(include, list) else []
