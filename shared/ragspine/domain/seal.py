"""A domain folder's seal: the record that its files passed the check, so a reader need not check them again.

Checking a domain file loads the pydantic schema of every file and validates it (about 25 ms of a
cold start for ACME's six files). A folder that passed ``ragspine domain check`` carries a seal
(``checked.json``): the SHA-256 of each of its domain files and of the engine's checking rules (the
sources of the schemas and checks, and the shipped packs) at the time of the check. A reader
trusts a file without checking it again only when the folder's files are exactly the sealed ones,
the file it reads is the sealed text, and the rules are the ones it runs; any other folder, an
edited file, a seal written by another version of the rules, or no seal at all, and the file is
checked in full. ``ragspine domain publish`` seals the bundle it stores; the shipped domains carry
their seal in the package (a test keeps them current).

A seal is a checksum, not a signature: it keeps an edited, stale or hand-made folder from skipping
the check; whoever can write a domain folder or the stack's domain bucket is trusted with its content anyway.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ragspine.domain.file_names import DOMAIN_FILES

SEAL_FILE = "checked.json"
FORMAT = "ragspine-domain-seal/1"
# What decides whether a file passes the check: these sources (read as package data) and the shipped packs.
RULE_SOURCES = ("domain/checks.py", "domain/schemas.py", "domain/packs.py", "domain/marks.py", "facts/formulas.py")


def digest(text: str) -> str:
    """The SHA-256 of a file's text (UTF-8), in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def rules_digest() -> str | None:
    """The digest of the checking rules this engine runs, or None when their sources are not installed."""
    package = resources.files("ragspine")
    packs = package / "shipped_domains" / "packs"
    sources = [package.joinpath(*name.split("/")) for name in RULE_SOURCES]
    sources += sorted((entry for entry in packs.iterdir() if entry.name.endswith(".yaml")), key=lambda e: e.name)
    hasher = hashlib.sha256()
    for source in sources:
        try:
            text = source.read_bytes()
        except OSError:
            return None  # a build without the sources (byte code only) vouches for nothing: every file is checked
        hasher.update(f"{source.name}\0{len(text)}\0".encode())
        hasher.update(text)
    return hasher.hexdigest()


def seal_of(files: Mapping[str, str]) -> dict[str, Any]:
    """The seal of a folder whose domain files (name to text) have just passed the check."""
    return {"format": FORMAT, "rules": rules_digest(),
            "files": {name: digest(text) for name, text in sorted(files.items())}}


def folder_files(folder: Path) -> dict[str, str]:
    """The domain files of ``folder`` (those the service reads), name to text."""
    return {name: (folder / name).read_text(encoding="utf-8")
            for name in sorted(DOMAIN_FILES) if (folder / name).is_file()}


def write_seal(folder: Path, files: Mapping[str, str] | None = None) -> Path:
    """Write the seal of ``folder`` (its files as they are now, unless ``files`` says which were checked)."""
    path = folder / SEAL_FILE
    path.write_text(json.dumps(seal_of(folder_files(folder) if files is None else files), indent=2,
                               sort_keys=True) + "\n", encoding="utf-8")
    return path


def valid_seal(seal: object) -> dict[str, str] | None:
    """The sealed file digests, when ``seal`` is a seal written by the rules this engine runs; else None."""
    rules = rules_digest()
    if not isinstance(seal, dict) or seal.get("format") != FORMAT or rules is None or seal.get("rules") != rules:
        return None
    files = seal.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    return {str(name): value for name, value in files.items()}


def sealed_files(folder: Path) -> dict[str, str] | None:
    """The domain files of ``folder`` (name to text), read once, when its seal vouches for them all: the
    folder is exactly as checked. None for any other folder (no seal, another version of the rules, a
    file edited, added or removed since), whose files must each be checked."""
    try:
        sealed = valid_seal(json.loads((folder / SEAL_FILE).read_text(encoding="utf-8")))
        present = folder_files(folder) if sealed is not None else None
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    if present is None or {n: digest(t) for n, t in present.items()} != sealed:
        return None
    return present


def vouches_for(folder: Path, name: str, text: str) -> bool:
    """Whether ``folder``'s seal vouches for ``text`` as its file ``name``: the folder is exactly as checked."""
    try:
        sealed = valid_seal(json.loads((folder / SEAL_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return False
    if sealed is None or sealed.get(name) != digest(text):
        return False
    try:
        present = folder_files(folder)
    except (OSError, UnicodeDecodeError):
        return False
    # The whole folder, not just this file: one file's check reads another (domain.yaml's packs for the glossary).
    return {n: digest(t) for n, t in present.items()} == sealed
