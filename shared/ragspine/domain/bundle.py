"""A domain folder as one published document, and that document unpacked into a folder again.

``ragspine domain publish`` stores a checked folder as one JSON document (the format tag, each
domain file's text by name, and the seal of the check it passed); a function that reads it back
unpacks it into a folder named by the document's digest, the seal beside the files, so every loader
keeps reading files from a folder without checking them again, and a newly published domain is a
new folder (the engine's caches, keyed by folder, build its objects afresh). A document without a
seal, or whose seal does not match its files or this engine's rules, is unpacked all the same and
its files are checked as they are read.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragspine.domain.file_names import DOMAIN_FILES
from ragspine.domain.seal import SEAL_FILE, folder_files, seal_of
from ragspine.errors import ConfigurationError

FORMAT = "ragspine-domain/1"
MAX_BUNDLE_BYTES = 4 * 1024 * 1024


def bundle_domain(folder: Path, *, checked: Mapping[str, str] | None = None) -> bytes:
    """The domain files of ``folder`` (those the service reads) as one JSON document.

    ``checked``: the files (name to text) that have just passed ``ragspine domain check``; the
    document holds exactly these, with their seal.
    """
    files = dict(checked) if checked is not None else folder_files(folder)
    document: dict[str, Any] = {"format": FORMAT, "files": files}
    if checked is not None:
        document["seal"] = seal_of(files)
    return json.dumps(document, ensure_ascii=False, sort_keys=True).encode("utf-8")


def unpacked_domain(document: bytes, root: Path | None = None) -> Path:
    """The folder holding the files of a published ``document`` (written once per content, under ``root``).

    Raises:
        ConfigurationError: the document is not a published domain (republish it with ``ragspine domain publish``).
    """
    files, seal = _contents(document)
    root = root or Path(tempfile.gettempdir()) / "ragspine-domains"
    folder = root / hashlib.sha256(document).hexdigest()[:24]
    if folder.is_dir():
        return folder
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=root))
    for name, text in files.items():
        (staging / name).write_text(text, encoding="utf-8")
    if seal is not None:  # the readers compare it with the files and their own rules before trusting it
        (staging / SEAL_FILE).write_text(json.dumps(seal, sort_keys=True), encoding="utf-8")
    try:
        staging.rename(folder)  # atomic: a reader sees the whole folder or none
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)  # another thread unpacked the same document first
        if not folder.is_dir():
            raise
    return folder


@lru_cache(maxsize=4)
def unpacked_published(document: bytes) -> Path:
    """``unpacked_domain`` under the temporary folder, remembered per document (asked on every request)."""
    return unpacked_domain(document)


def _contents(document: bytes) -> tuple[dict[str, str], dict[str, Any] | None]:
    """The files of a published document and its seal (None when it has none)."""
    fix = "publish the folder again with `ragspine domain publish`"
    if len(document) > MAX_BUNDLE_BYTES:
        raise ConfigurationError(f"the published domain is larger than {MAX_BUNDLE_BYTES} bytes: {fix}")
    try:
        data = json.loads(document)
    except ValueError as exc:
        raise ConfigurationError(f"the published domain is not JSON ({exc}): {fix}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
        raise ConfigurationError(f"the published domain is not a {FORMAT} document: {fix}")
    files: dict[str, str] = data["files"]
    seal = data.get("seal")
    unknown = sorted(name for name in files if name not in DOMAIN_FILES)
    if unknown:  # only the known file names: a name never becomes a path outside the folder
        raise ConfigurationError(f"the published domain holds files the service does not read ({', '.join(unknown)}): "
                                 f"{fix}")
    if not all(isinstance(text, str) for text in files.values()):
        raise ConfigurationError(f"the published domain holds a file that is not text: {fix}")
    return files, seal if isinstance(seal, dict) else None
