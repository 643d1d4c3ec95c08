"""Where the ``fetch`` step reads a document: a local path, or a URI that a registered reader serves.

The ingestion package names no storage service. A source with a scheme (``s3://bucket/key``)
is read by the ``SourceReader`` the composition root registered for that scheme; a source
without one is a path on this machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from ragspine.ingestion.errors import DocumentTooLargeError, SourceNotFoundError, SourceUnavailableError


class SourceReader(Protocol):
    """Reads one stored object: its bytes and its user metadata.

    Raises ``SourceNotFoundError`` (permanent), ``DocumentTooLargeError`` or
    ``SourceUnavailableError`` (transient, retried), as ``read_path`` does for a local file.
    """

    def __call__(self, uri: str, *, max_bytes: int) -> tuple[bytes, dict[str, str]]: ...


def scheme_of(source: str) -> str | None:
    """``s3`` for ``s3://bucket/key``; None for a local path (a Windows drive letter is not a scheme)."""
    scheme, sep, _ = source.partition("://")
    return scheme.lower() if sep and len(scheme) > 1 and scheme.isalnum() else None


def read_uri(source: str, readers: Mapping[str, SourceReader], *, max_bytes: int) -> tuple[bytes, dict[str, str]]:
    """The bytes and metadata of a source with a scheme, read by the reader registered for it.

    Raises:
        SourceNotFoundError: no reader serves the scheme here (this deployment cannot read it).
    """
    scheme = scheme_of(source)
    reader = readers.get(scheme) if scheme is not None else None
    if reader is None:
        raise SourceNotFoundError(f"{source}: this deployment reads no '{scheme}://' sources; submit a local "
                                  f"file, or run where a reader for '{scheme}' is configured")
    return reader(source, max_bytes=max_bytes)


def read_path(source: str, *, max_bytes: int) -> bytes:
    """A local file's bytes.

    Raises:
        SourceNotFoundError: no such file, a folder, or no permission (permanent).
        DocumentTooLargeError: the file is over ``max_bytes``.
        SourceUnavailableError: any other read failure (transient, retried).
    """
    path = Path(source)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise IsADirectoryError(source)
        if size > max_bytes:
            raise DocumentTooLargeError(f"{path.name} is {size:,} bytes, over the {max_bytes:,}-byte "
                                        "limit; split it or upload a smaller file.")
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as exc:
        raise SourceNotFoundError(f"{source}: cannot open the file ({type(exc).__name__})") from exc
    except OSError as exc:
        raise SourceUnavailableError(f"{source}: reading failed ({exc.strerror or exc})") from exc
