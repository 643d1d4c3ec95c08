"""Limits one document cannot get past: what an Office package inflates to, and a parse's time and memory.

Office files (docx, xlsx, pptx) are zip packages, and a few kilobytes can inflate to hundreds of
megabytes of XML that the format libraries then take minutes and gigabytes to walk. The package
is inflated here first, member by member in small chunks, and refused the moment it passes the
size or compression-ratio limit, so a bomb costs a few megabytes of inflating, never the parse.

The parse itself runs under a budget: a watchdog thread raises an exception in the parsing
thread once the parse has run too long or the process has grown too much since it started.
The exception arrives at the parser's next Python instruction (a single long call into a C
library finishes first, which the size limit keeps short). Memory is the process's resident
size, so parses running side by side share one budget's view of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ragspine.ingestion.errors import (
    ArchiveExpansionError,
    CorruptDocumentError,
    ParseMemoryExceededError,
    ParseTimeoutError,
)

T = TypeVar("T")
MiB = 1024 * 1024
_CHUNK = 64 * 1024
_POLL_S = 0.05
_STATM = Path("/proc/self/statm")
_TRIM_AFTER_BYTES = 64 * MiB  # a parse that grew the process this much hands the freed heap back
# The only compression methods an Office package may use (ECMA-376 Part 2, Annex C). They are also
# the only ones zipfile inflates in bounded reads: a bzip2 or LZMA member inflates all the input it
# is given in one call, which would hold a bomb's whole output before the first limit is checked.
_OFFICE_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
_METHOD_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """Per-document limits (``RAGSPINE_INGEST_*`` settings)."""

    max_unpacked_bytes: int = 256 * MiB  # everything an Office package inflates to, together
    max_ratio: float = 100.0  # inflated / compressed bytes of one member ...
    ratio_floor_bytes: int = 1 * MiB  # ... once it has inflated past this (small parts compress freely)
    timeout_s: float = 120.0  # one parse, wall clock
    max_memory_bytes: int = 1024 * MiB  # growth of the process's resident memory during one parse
    # Parse in a child process with hard limits (``isolated.parse_in_child``) instead of this
    # process's watchdog thread.
    out_of_process: bool = False
    # A parse child runs at the lowest CPU and I/O priority (``background_priority``), so asks go first.
    background: bool = True


def check_package(data: bytes, *, filename: str, label: str, limits: ParseLimits) -> None:
    """Inflate every member of an Office package within the limits, or refuse it.

    Raises:
        CorruptDocumentError: not a readable zip (damaged, truncated, a member failing its CRC), or a member
            compressed otherwise than stored or deflated (refused before anything is inflated).
        ArchiveExpansionError: it inflates past ``max_unpacked_bytes`` or a member past ``max_ratio``.
    """
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_methods(filename, label, archive.infolist())
            # Every member, a name ending in "/" too: zipfile and the format libraries read such a member's data.
            for info in archive.infolist():
                total = _inflate_member(archive, info, total, filename=filename, label=label, limits=limits)
    # RuntimeError: an encrypted member; OverflowError: a ZIP64 offset past any file (a seek beyond 2**63)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, ValueError, OSError, EOFError,
            RuntimeError, OverflowError) as exc:
        raise CorruptDocumentError(
            f"{filename} is not a valid {label} file: {label} files are zip packages and this one is damaged "
            "or truncated. Save a fresh copy from its application and upload that."
        ) from exc


def _inflate_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, total: int, *, filename: str, label: str,
                    limits: ParseLimits) -> int:
    """Inflate one member in small chunks within the limits; the bytes inflated so far, this member's added."""
    inflated = 0
    try:
        # ZipExtFile stops at the size the member declares, and checks its CRC at the end.
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                inflated += len(chunk)
                total += len(chunk)
                _check_growth(filename, label, info, inflated, total, limits)
    except zlib.error as exc:  # a damaged deflate stream, or bytes of another method under the deflate label
        raise CorruptDocumentError(
            f"{filename} is not a valid {label} file: its part {info.filename[:100]} is not a readable deflate "
            "stream (the file is damaged). Save a fresh copy from its application and upload that.") from exc
    return total


def _check_methods(filename: str, label: str, members: list[zipfile.ZipInfo]) -> None:
    for info in members:
        if info.compress_type not in _OFFICE_METHODS:
            method = _METHOD_NAMES.get(info.compress_type, f"zip method {info.compress_type}")
            raise CorruptDocumentError(
                f"{filename} is not a valid {label} file: its part {info.filename[:100]} is compressed with "
                f"{method}, and {label} packages are only stored or deflated. Save a fresh copy from its "
                "application and upload that.")


def _check_growth(filename: str, label: str, info: zipfile.ZipInfo, inflated: int, total: int,
                  limits: ParseLimits) -> None:
    if total > limits.max_unpacked_bytes:
        raise ArchiveExpansionError(
            f"{filename} inflates to more than {limits.max_unpacked_bytes:,} bytes, the limit for a {label} "
            "package: split it into smaller files.")
    if inflated > limits.ratio_floor_bytes and inflated > limits.max_ratio * max(info.compress_size, 1):
        raise ArchiveExpansionError(
            f"{filename}: its part {info.filename[:100]} inflates more than {limits.max_ratio:g} times its "
            f"compressed size ({info.compress_size:,} bytes to over {inflated:,}), which real {label} files do "
            "not: save a fresh copy from its application and upload that.")


class _BudgetExceeded(BaseException):
    """Raised inside the parsing thread by the watchdog (a BaseException: no parser's ``except Exception``
    may swallow it)."""


class _DropBudgetStops:
    """``sys.unraisablehook`` that drops a budget stop which landed where the interpreter cannot raise it (a
    finalizer, a gc callback): the watchdog sends it again, so it is not lost, and printing it is noise."""

    def __init__(self, previous: Callable[[sys.UnraisableHookArgs], object]) -> None:
        self.previous = previous

    def __call__(self, unraisable: sys.UnraisableHookArgs) -> None:
        if unraisable.exc_type is not _BudgetExceeded:
            self.previous(unraisable)


def _resident_bytes() -> int | None:
    """The process's resident memory (Linux ``/proc``), or None where it cannot be read."""
    try:
        return int(_STATM.read_bytes().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def within_budget(parse: Callable[[], T], *, filename: str, limits: ParseLimits) -> T:
    """``parse()`` in this thread, stopped with a typed error when it passes the time or memory budget.

    Raises:
        ParseTimeoutError: it ran longer than ``limits.timeout_s``.
        ParseMemoryExceededError: the process grew by more than ``limits.max_memory_bytes`` meanwhile.
    """
    target = threading.get_ident()
    lock = threading.Lock()
    state: dict[str, object] = {"armed": True, "reason": None}
    stop = threading.Event()
    started_rss = _resident_bytes()
    deadline = time.monotonic() + limits.timeout_s

    def watch() -> None:
        while not stop.wait(_POLL_S):
            rss = _resident_bytes() if started_rss is not None else None
            reason = state["reason"] or ("time" if time.monotonic() > deadline else
                                         "memory" if rss is not None and started_rss is not None
                                         and rss - started_rss > limits.max_memory_bytes else None)
            if reason is None:
                continue
            # Sent again on every poll until the parse ends: an exception that lands in a finalizer or a
            # gc callback is printed and dropped by the interpreter, and the parse would run on unbounded.
            with lock:
                if state["armed"]:
                    state["reason"] = reason
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                               ctypes.py_object(_BudgetExceeded))

    if not isinstance(sys.unraisablehook, _DropBudgetStops):  # another hook may have replaced it since
        sys.unraisablehook = _DropBudgetStops(sys.unraisablehook)
    watcher = threading.Thread(target=watch, name="ragspine-parse-budget", daemon=True)
    watcher.start()
    try:
        try:
            result = parse()
        finally:
            with lock:
                state["armed"] = False
                # One sent just before disarming may still be pending: drop it so it cannot land later.
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
            stop.set()
    except _BudgetExceeded:  # delivered while armed (possibly just as the parse returned)
        release_memory()
        if state["reason"] == "memory":
            raise ParseMemoryExceededError(
                f"{filename} needed more than {limits.max_memory_bytes:,} bytes of memory to parse: split it "
                "into smaller files or simplify it (fewer embedded objects, plainer tables).") from None
        raise ParseTimeoutError(
            f"{filename} took longer than {limits.timeout_s:g} s to parse: split it into smaller files or save "
            "a simpler copy (fewer pages, sheets or slides).") from None
    if started_rss is not None and (_resident_bytes() or 0) - started_rss > _TRIM_AFTER_BYTES:
        release_memory()
    return result


def release_memory() -> None:
    """Hand freed heap back to the OS (glibc keeps it otherwise); a no-op elsewhere."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
