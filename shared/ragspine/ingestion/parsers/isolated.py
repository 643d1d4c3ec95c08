"""Parse one document in a child process under hard limits, so the service's own process stays free.

Parsing is CPU-bound Python: in the service's process it holds the interpreter lock that the
ask routes need, and a budget can only be approximated there (a watchdog thread raising in the
parsing thread, the whole process's memory). A child process per document gets limits the
kernel enforces instead:

- ``RLIMIT_AS``: its address space may grow by the memory budget and no more; an allocation past
  it fails (``MemoryError``) inside the child;
- ``RLIMIT_CPU``: the kernel stops it (``SIGXCPU``) after the time budget of CPU;
- the wall clock: the parent kills it once the time budget has passed;

and whatever happens to it (a crash in a C library, the system's out-of-memory killer) ends only
that child: its operation fails with a clear code and the next document gets a fresh child.
Children are forked from a server process that has the parsers imported already
(``forkserver``), never from the multi-threaded service itself.

The child returns the parsed document already encoded as the staged JSON (``staged.dump_document``),
so the parent never builds the document's objects.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import resource
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.ingestion import errors as ingestion_errors
from ragspine.ingestion.errors import (
    CorruptDocumentError,
    IngestionError,
    ParseMemoryExceededError,
    ParserCrashedError,
    ParseTimeoutError,
)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext

    from ragspine.ingestion.parsers.guard import ParseLimits

logger = logging.getLogger(__name__)

# What the fork server imports once, so each child starts with the parsers loaded (and the main
# module, as multiprocessing does by default, so a child does not import it again).
# The parsers import their format libraries lazily (a light Lambda import), so those are listed too;
# one that is not installed is skipped.
_PRELOAD = ["__main__", "ragspine.ingestion.parsers.registry", "ragspine.ingestion.staged",
            "docx", "docx.table", "docx.text.paragraph", "pptx", "openpyxl", "openpyxl.utils.cell",
            "pypdfium2", "pypdfium2.raw", "lxml.etree", "lxml.html", "markdown_it"]
# How long a child may take to start (the fork server's first start imports the parsers).
_START_S = 60.0
_context_lock = threading.Lock()
_context: BaseContext | None = None


@dataclass(frozen=True, slots=True)
class ChildParse:
    """A document parsed in a child: its staged JSON and its page count."""

    document: bytes
    pages: int


def parse_in_child(data: bytes, *, doc_id: str, filename: str, max_bytes: int, limits: ParseLimits,
                   media_type: str | None = None) -> ChildParse:
    """``parse_document`` in a fresh child process under ``limits``, enforced by the kernel and a killing parent.

    Raises:
        Every error ``parse_document`` raises, and:
        ParseTimeoutError: the child ran past ``limits.timeout_s`` (wall clock or CPU).
        ParseMemoryExceededError: it needed more than ``limits.max_memory_bytes``, or the system killed it.
        ParserCrashedError: it ended abnormally (a signal such as SIGSEGV, or no answer).
    """
    context = _multiprocessing_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(  # type: ignore[attr-defined]
        target=_child_main, args=(sender, data, doc_id, filename, max_bytes, media_type, limits),
        name="ragspine-parse", daemon=True)
    process.start()
    sender.close()
    killed = False
    try:
        message, _ = _receive(receiver, _START_S)
        if message is not None and message[0] == "started":
            message, timed_out = _receive(receiver, limits.timeout_s)
            if timed_out:
                process.kill()
                killed = True
    finally:
        if process.is_alive() and not killed:
            process.kill()
        process.join()
        receiver.close()
    exitcode = process.exitcode
    process.close()
    return _outcome(message, exitcode, killed=killed, filename=filename, limits=limits)


def _receive(receiver: Connection, within_s: float) -> tuple[tuple[Any, ...] | None, bool]:
    """The child's next message (None when it ended without one), and whether ``within_s`` passed first."""
    try:
        if not receiver.poll(within_s):
            return None, True
        message = receiver.recv()
    except (EOFError, OSError):
        return None, False
    return (message if isinstance(message, tuple) and message else None), False


def _outcome(message: tuple[Any, ...] | None, exitcode: int | None, *, killed: bool, filename: str,
             limits: ParseLimits) -> ChildParse:
    kind = message[0] if message else None
    if kind == "parsed":
        return ChildParse(document=message[1], pages=message[2])  # type: ignore[index]
    if kind == "refused":
        raise _ingestion_error(message[1], message[2])  # type: ignore[index]
    if kind == "memory" or (exitcode == -signal.SIGKILL and not killed):
        # SIGKILL that the parent did not send: the system's out-of-memory killer.
        raise ParseMemoryExceededError(
            f"{filename} needed more than {limits.max_memory_bytes:,} bytes of memory to parse: split it into "
            "smaller files or simplify it (fewer embedded objects, plainer tables).")
    if killed or exitcode == -signal.SIGXCPU:
        raise ParseTimeoutError(
            f"{filename} took longer than {limits.timeout_s:g} s to parse: split it into smaller files or save a "
            "simpler copy (fewer pages, sheets or slides).")
    how = (f"signal {signal.Signals(-exitcode).name}" if exitcode is not None and exitcode < 0
           and -exitcode in signal.valid_signals() else f"exit status {exitcode}")
    logger.warning("parse child ended abnormally", extra={"file_name": filename, "exit": how})
    raise ParserCrashedError(
        f"{filename}: the parser stopped abnormally ({how}) while reading it. The file is probably malformed in a "
        "way the format library cannot handle: save a fresh copy from its application and upload that.")


def _ingestion_error(name: str, text: str) -> IngestionError:
    """The child's refusal as the same error type in this process (any other name: a plain IngestionError)."""
    kind = getattr(ingestion_errors, name, None)
    if isinstance(kind, type) and issubclass(kind, IngestionError):
        return kind(text)
    return IngestionError(text)


def start_parse_server() -> None:
    """Start the fork server now: it imports the parsers in its own process while this one goes on,
    so the first upload does not wait for them."""
    context = _multiprocessing_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _multiprocessing_context() -> BaseContext:
    """The fork server (the parsers preloaded) where the platform has one, else plain spawn."""
    global _context  # noqa: PLW0603 - one fork server per service process
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                forkserver = multiprocessing.get_context("forkserver")
                forkserver.set_forkserver_preload(_PRELOAD)
                _context = forkserver
            else:
                _context = multiprocessing.get_context("spawn")
        return _context


def _child_main(sender: Connection, data: bytes, doc_id: str, filename: str, max_bytes: int,
                media_type: str | None, limits: ParseLimits) -> None:
    """The child: limit itself, parse, send the staged document or why not."""
    from ragspine.ingestion import staged
    from ragspine.ingestion.parsers.registry import parse_document

    cap = _limit_self(limits)
    sender.send(("started",))
    try:
        document = parse_document(data, doc_id=doc_id, filename=filename, max_bytes=max_bytes,
                                  media_type=media_type, limits=limits, watchdog=False)
        encoded = staged.dump_document(document)
        pages = document.pages
        del document
    except MemoryError:
        sender.send(("memory",))
        return
    except IngestionError as exc:
        # A C library refused by the address-space limit reports a failed allocation its own way
        # (lxml: "unknown error", read as a damaged file): a failure after the parse came close to
        # the limit is the memory budget's.
        if isinstance(exc, CorruptDocumentError) and _came_close_to(cap, limits.max_memory_bytes):
            sender.send(("memory",))
        else:
            sender.send(("refused", type(exc).__name__, exc.message))
        return
    sender.send(("parsed", encoded, pages))


def _limit_self(limits: ParseLimits) -> int | None:
    """Hard limits on this process: address space grows by the memory budget at most, CPU time the time budget.

    Returns:
        The address-space limit set, or None where the process's size cannot be read.
    """
    size = _virtual_bytes("VmSize")
    cap = None if size is None else size + limits.max_memory_bytes
    if cap is not None:
        _set_limit(resource.RLIMIT_AS, cap, cap)
    seconds = max(1, math.ceil(limits.timeout_s))
    _set_limit(resource.RLIMIT_CPU, seconds + 1, seconds + 2)  # SIGXCPU at the soft limit, SIGKILL at the hard
    return cap


def _came_close_to(cap: int | None, budget: int) -> bool:
    """Whether this process's peak address space reached the last quarter of the memory budget."""
    peak = _virtual_bytes("VmPeak")
    return cap is not None and peak is not None and peak >= cap - budget // 4


def _set_limit(which: int, soft: int, hard: int) -> None:
    current_soft, current_hard = resource.getrlimit(which)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):  # a platform that refuses this limit: the parent's wall clock still holds
        logger.debug("rlimit not set", extra={"limit": which, "current": (current_soft, current_hard)})


def _virtual_bytes(field: str) -> int | None:
    """A size line of this process's ``/proc/self/status`` (``VmSize``, ``VmPeak``) in bytes, or None elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
