"""``ragspine domain init``: a commented starting folder that ``ragspine domain check`` accepts."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ragspine.domain.checks import SCHEMAS
from ragspine.errors import ConflictError


def starter_dir() -> Path:
    """The packaged starting files (one per domain file, every field commented)."""
    return Path(str(resources.files("ragspine") / "domain" / "templates"))


def init_domain(folder: Path, *, force: bool = False) -> list[Path]:
    """Write the starting files into ``folder`` and return their paths.

    Raises:
        ConflictError: a domain file already exists there and ``force`` is not set.
    """
    existing = [name for name in SCHEMAS if (folder / name).exists()]
    if existing and not force:
        raise ConflictError(f"{folder} already holds {', '.join(existing)}: choose an empty folder, "
                            "or pass --force to overwrite them")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        target = folder / name
        target.write_bytes((starter_dir() / name).read_bytes())
        written.append(target)
    return written
