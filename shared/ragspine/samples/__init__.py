"""The sample corpora of the shipped domains: their figures, deterministic builders and built files.

``build_corpus`` and ``SAMPLES_DIR`` are re-exported lazily: importing the builder here
eagerly would make ``python -m ragspine.samples.build_acme`` warn that the module was
already imported before running as ``__main__``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragspine.samples.build_acme import build_corpus as build_acme

if TYPE_CHECKING:
    from pathlib import Path

    from ragspine.samples.build_acme import SAMPLES_DIR, build_corpus

__all__ = ["SAMPLES_DIR", "build_corpus"]


def build_for(folder: Path, *, out: Path | None = None) -> list[Path]:
    """Build the shipped sample corpus whose folder this is (``samples/acme``, ``samples/vela``) into ``out``."""
    if folder.name == "vela":
        from ragspine.samples.build_vela import build_corpus as build_vela

        return build_vela(out or folder)

    return build_acme(out or folder)


def __getattr__(name: str) -> object:
    """Resolve the lazily re-exported names on first access."""
    if name in __all__:
        from ragspine.samples import build_acme

        return getattr(build_acme, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
