"""YAML read from a parsed copy kept beside it, so a start that reads only such files never imports PyYAML.

Importing PyYAML costs a cold start of the ask function 8-10 ms of CPU, and parsing the dozen files
its first request reads (the engine's configuration, the shipped domain) a few more. A folder may hold
``parsed.json``: for each of its YAML files, the SHA-256 of the file's text and its data as JSON.
``load`` takes a file's data from there only when that digest is the digest of the text just read;
any other file (no copy, an edited file, data JSON cannot hold unchanged, such as a date) is parsed
with PyYAML, imported then. The copies are written by ``write_parsed``: ``ragspine domain check
--seal`` writes the domain folder's, ``tools/parsed_yaml.py`` the engine's shipped folders'
(``tests/unit/core/test_parsed_yaml.py`` keeps those current).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    import yaml
else:
    yaml = LazyModule("yaml")  # only for a file without a current parsed copy

PARSED_FILE = "parsed.json"
FORMAT = "ragspine-parsed-yaml/1"


def parse(text: str) -> Any:
    """YAML text as data, with libyaml when PyYAML has it (a tenth of the time).

    Raises:
        yaml.YAMLError: the text is not YAML.
    """
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 (a safe loader)


def load(path: Path, text: str) -> Any:
    """The data of ``text``, the text of the YAML file ``path``: from its folder's parsed copy when that
    holds this very text, else parsed now.

    Raises:
        yaml.YAMLError: the text is not YAML (only a file without a current copy is parsed).
    """
    entry = _copies(path.parent).get(path.name)
    if entry is not None and entry[0] == _digest(text):
        return json.loads(entry[1])  # a fresh object on every read, as a parse gives
    return parse(text)


@lru_cache(maxsize=64)
def _copies(folder: Path) -> dict[str, tuple[str, str]]:
    """name -> (digest, JSON text) of the parsed copies ``folder`` holds (none when it holds no valid file).

    Kept for the process: a copy is only ever used for the text whose digest it records, so a file
    edited since (or a copy rewritten since) is parsed instead, never misread."""
    try:
        document = json.loads((folder / PARSED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = document.get("files") if isinstance(document, dict) and document.get("format") == FORMAT else None
    if not isinstance(files, dict):
        return {}
    return {str(name): (str(entry["sha256"]), str(entry["json"])) for name, entry in files.items()
            if isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("json"), str)}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parsed_copies(folder: Path) -> dict[str, Any]:
    """The ``parsed.json`` document for ``folder`` as its YAML files are now (files JSON cannot hold left out).

    Raises:
        yaml.YAMLError: a file is not YAML.
    """
    files: dict[str, dict[str, str]] = {}
    for path in sorted(folder.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        data = parse(text)
        try:
            encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):
            continue  # a date, a set, NaN: read with PyYAML
        if json.loads(encoded) != data or not _same_types(json.loads(encoded), data):
            continue  # keys that are not strings, ...: read with PyYAML
        files[path.name] = {"sha256": _digest(text), "json": encoded}
    return {"format": FORMAT, "files": files}


def _same_types(copy: Any, data: Any) -> bool:
    """Whether ``copy`` has the types of ``data`` throughout (``1 == 1.0`` and ``True == 1`` in Python)."""
    if type(copy) is not type(data):
        return False
    if isinstance(data, dict):
        return all(_same_types(copy[key], value) for key, value in data.items())
    if isinstance(data, list):
        return all(_same_types(a, b) for a, b in zip(copy, data, strict=True))
    return True


def write_parsed(folder: Path) -> Path:
    """Write ``folder``'s ``parsed.json`` for its YAML files as they are now; its path."""
    path = folder / PARSED_FILE
    path.write_text(json.dumps(parsed_copies(folder), ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    _copies.cache_clear()
    return path
