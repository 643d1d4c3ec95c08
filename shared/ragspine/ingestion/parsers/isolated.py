"""Parse documents in child processes under hard limits, so the service's own process stays free.

Parsing is CPU-bound Python: in the service's process it holds the interpreter lock that the
ask routes need, and a budget can only be approximated there (a watchdog thread raising in the
parsing thread, the whole process's memory). A child process gets limits the kernel enforces
instead, set again before each document:

- ``RLIMIT_AS``: its address space may reach its starting size plus the memory budget and no
  more; an allocation past it fails (``MemoryError``) inside the child;
- ``RLIMIT_CPU``: the kernel stops it (``SIGXCPU``) once the parse used the time budget of CPU;
- the wall clock: the parent kills it once the time budget has passed;

and whatever happens to it (a crash in a C library, the system's out-of-memory killer) ends only
that child: its operation fails with a clear code and the next document gets a fresh child.
A child that parsed or refused a document serves the next one (no fork per document, warm
caches) until it has served ``_PARSES_PER_CHILD`` or grown too much. Children are forked from a
server process that has the parsers imported already (``forkserver``), never from the
multi-threaded service itself.

The child returns the parsed document already encoded as the staged JSON (``staged.dump_document``),
so the parent never builds the document's objects. Given a ``PrepareRequest`` it goes on under
the same memory limit and a fresh time budget: facts, chunks, the version's text and the index
terms (``ingestion.prepare``), all encoded as they are staged, so the service's process only
writes them. An unexpected error there (a bug, not the file) sends back the parse alone: the
steps then do that work in the service's process and fail there exactly as they would without
a child.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_until_ready
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.ingestion import errors as ingestion_errors
from ragspine.ingestion import staged
from ragspine.ingestion.errors import (
    CorruptDocumentError,
    IngestionError,
    ParseMemoryExceededError,
    ParserCrashedError,
    ParserReplyInvalidError,
    ParseTimeoutError,
)
from ragspine.ingestion.parsers.child_reply import (
    MEMORY,
    PARSED,
    PREPARING,
    REFUSED,
    RETIRED,
    STARTED,
    InvalidReply,
    Reply,
    bare_frames,
    parsed_frames,
    receive,
    refused_frames,
    send_frames,
)
from ragspine.ingestion.parsers.guard import release_memory
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.ingestion.prepare import prepare
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

    from ragspine import background_priority
    from ragspine.ingestion.parsers.guard import ParseLimits
    from ragspine.ingestion.prepare import PreparedDocument, PrepareRequest
else:
    # Loaded in the parse child that lowers its priority, not in the worker that imports this module.
    background_priority = LazyModule("ragspine.background_priority")

logger = logging.getLogger(__name__)

# What the fork server imports once, so each child starts with the parsers loaded (and the main
# module, as multiprocessing does by default, so a child does not import it again).
# The parsers import their format libraries lazily (a light Lambda import), so those are listed too;
# one that is not installed is skipped.
_PRELOAD = ["__main__", "ragspine.background_priority", "ragspine.ingestion.parsers.registry",
            "ragspine.ingestion.staged",
            "ragspine.ingestion.prepare", "ragspine.ingestion.facts_extract", "ragspine.ingestion.document_context",
            "ragspine.ingestion.chunking", "ragspine.retrieval.embedded_rows", "ragspine.retrieval.version_text",
            "docx", "docx.table", "docx.text.paragraph", "pptx", "openpyxl", "openpyxl.utils.cell",
            "pypdfium2", "pypdfium2.raw", "lxml.etree", "lxml.html", "markdown_it"]
# How long a child may take to start (the fork server's first start imports the parsers).
_START_S = 60.0
# How long an answer that has begun may take to arrive whole (it is computed before it is sent).
_REPLY_S = 30.0
# A child at the lowest priority that is runnable but kept waiting by other work gets up to this
# many times its time budget on the wall clock.
_STARVED_FACTOR = 4
_context_lock = threading.Lock()
_context: BaseContext | None = None
# A child parses documents one after another (warm caches, no fork per document) and is replaced
# after this many, or as soon as a parse fails in any way but a refusal of the file.
_PARSES_PER_CHILD = 200
_BUSY, _IDLE = "ragspine-parse", "ragspine-parse-idle"
_idle_lock = threading.Lock()
_idle: list[_Child] = []
# multiprocessing reads an ended child's exit status once, from the fork server, into a record shared by
# every thread, and a start first polls every child started before. Two threads reading at once leave the
# status at 255 (an out-of-memory kill told as a crash), or one reads a closed pipe whose number a new
# child's took (that start then waits forever). Every call that may read it holds this lock; waiting for
# a child to end happens outside it.
process_lock = threading.Lock()
# Messages a child sends with no room left to build one: built when the module loads.
_STARTED, _PREPARING, _RETIRED, _MEMORY = (bare_frames(kind) for kind in (STARTED, PREPARING, RETIRED, MEMORY))
# A child's exit status when memory ran out while it was writing an answer (or reading a job).
OUT_OF_MEMORY_EXIT = 86


@dataclass(frozen=True, slots=True)
class ChildParse:
    """A document parsed in a child: its staged JSON, its page count, and what the child computed past parsing."""

    document: bytes
    pages: int
    prepared: PreparedDocument | None = None


def parse_in_child(data: bytes, *, doc_id: str, filename: str, max_bytes: int, limits: ParseLimits,
                   media_type: str | None = None, prepare: PrepareRequest | None = None) -> ChildParse:
    """``parse_document`` in a child process under ``limits``, enforced by the kernel and a killing parent.

    With ``prepare`` the child also computes what the steps after parsing would
    (``ingestion.prepare.prepare``) under the same memory limit and a time budget of its own;
    ``ChildParse.prepared`` is None when that failed unexpectedly (the steps then compute it themselves).
    The child's answer is data only (``child_reply``), checked before any of it is used.

    Raises:
        Every error ``parse_document`` raises, and:
        ParseTimeoutError: the child ran past ``limits.timeout_s`` (wall clock or CPU).
        ParseMemoryExceededError: it needed more than ``limits.max_memory_bytes``, or the system killed it.
        ParserCrashedError: it ended abnormally (a signal such as SIGSEGV, or no answer).
        ParserReplyInvalidError: it answered with something that is not a parse child's message.
    """
    job = (data, doc_id, filename, max_bytes, media_type, limits, prepare)
    child = _take_child()
    killed = reusable = False
    message: Reply | None = None
    invalid: InvalidReply | None = None
    try:
        child.connection.send(job)
        message, _ = _receive(child, _START_S, limits)
        if message is not None and message.kind == RETIRED:  # grown by earlier parses: a fresh child takes it
            _end(child)
            child = _take_child(fresh=True)
            child.connection.send(job)
            message, _ = _receive(child, _START_S, limits)
        # The parse, then the preparation past it, each get the time budget.
        for phase in (STARTED, PREPARING):
            if message is None or message.kind != phase or killed:
                continue
            since = _cpu_mark(child)
            message, timed_out = _receive(child, limits.timeout_s, limits)
            waited = limits.timeout_s
            while timed_out and waited < _STARVED_FACTOR * limits.timeout_s and _waiting_for_cpu(child, since):
                # At the lowest priority the machine's other work can keep it from running: wait
                # longer while it is runnable, not stuck (its CPU time stays limited by RLIMIT_CPU).
                message, timed_out = _receive(child, limits.timeout_s / 4, limits)
                waited += limits.timeout_s / 4
            if timed_out:
                _kill(child.process)
                killed = True
        if message is not None and message.kind == PARSED:
            _check_identity(message, doc_id, prepare)
        # A child that parsed or refused the file serves the next one, unless it grew too much.
        reusable = message is not None and message.kind in (PARSED, REFUSED)
    except (OSError, EOFError):  # the child was gone before it took the document
        message = None
    except InvalidReply as exc:  # a child that says anything else is never heard again
        _kill(child.process)
        invalid = exc
    finally:
        exitcode = _give_back(child, reusable=reusable)
    if invalid is not None:
        logger.warning("parse child sent an invalid reply", extra={"file_name": filename, "reason": str(invalid)})
        raise ParserReplyInvalidError(
            f"{filename}: the process parsing it answered with something that is not a parse result ({invalid}); "
            "nothing of it was used. The file may be crafted to attack the parser: check where it came from "
            "before uploading it again.")
    return _outcome(message, exitcode, killed=killed, filename=filename, limits=limits)


def _check_identity(reply: Reply, doc_id: str, prepare: PrepareRequest | None) -> None:
    """A version text is written under its own version id: it must be this document's version."""
    text = reply.prepared.text if reply.prepared is not None else None
    if text is None or prepare is None:
        return
    if text.doc_id != doc_id or text.version_id != prepare.operation.version_id:
        raise InvalidReply("its version text names another document or version")


@dataclass(slots=True)
class _Child:
    """A parse child: it parses the documents sent on its connection, one at a time."""

    process: BaseProcess
    connection: Connection
    parses: int = 0


def _take_child(*, fresh: bool = False) -> _Child:
    """An idle child that is still alive, or a new one (always when ``fresh``)."""
    with _idle_lock:
        while _idle and not fresh:
            child = _idle.pop()
            if _alive(child.process):
                child.process.name = _BUSY
                return child
            _end(child)
    context = _multiprocessing_context()
    ours, theirs = context.Pipe(duplex=True)
    process = context.Process(target=_serve, args=(theirs,), name=_BUSY, daemon=True)  # type: ignore[attr-defined]
    with process_lock:
        process.start()
    theirs.close()
    return _Child(process, ours)


def _give_back(child: _Child, *, reusable: bool) -> int | None:
    """Keep a child that parsed or refused a document for the next one; end any other. Its exit code, if ended."""
    child.parses += 1
    if reusable and child.parses < _PARSES_PER_CHILD and _alive(child.process):
        child.process.name = _IDLE
        with _idle_lock:
            _idle.append(child)
        return None
    return _end(child)


def _end(child: _Child) -> int | None:
    process = child.process
    if _alive(process):
        child.connection.close()  # an idle child ends on its own when its connection closes
        if not wait_until_ready([process.sentinel], 1.0):
            _kill(process)
    wait_until_ready([process.sentinel])
    if not child.connection.closed:
        child.connection.close()
    with process_lock:
        process.join()
        exitcode = process.exitcode
        process.close()
    return exitcode


def _alive(process: BaseProcess) -> bool:
    with process_lock:
        return process.is_alive()


def _kill(process: BaseProcess) -> None:
    with process_lock:
        process.kill()


def _receive(child: _Child, within_s: float, limits: ParseLimits) -> tuple[Reply | None, bool]:
    """The child's next message (None when it ended without one), and whether ``within_s`` passed first.

    A message that has begun must arrive whole within ``_REPLY_S`` (the child computed it before
    sending), else the child is killed, which ends the read.

    Raises:
        InvalidReply: what it sent is not one of its messages.
    """
    stalled = threading.Event()

    def stop() -> None:
        stalled.set()
        _kill(child.process)

    try:
        if not child.connection.poll(within_s):
            return None, True
        guard = threading.Timer(_REPLY_S, stop)
        guard.start()
        try:
            return receive(child.connection, max_frame_bytes=_frame_bytes(limits)), False
        finally:
            guard.cancel()
    except (EOFError, OSError):
        if stalled.is_set():
            raise InvalidReply(f"it began an answer and did not finish it within {_REPLY_S:g} s") from None
        return None, False


def _waiting_for_cpu(child: _Child, since: tuple[float, float] | None) -> bool:
    """Whether the child is runnable and used less than half the wall clock since ``since`` (its CPU time and
    the monotonic clock then) in CPU: it was kept waiting for a core, not stuck."""
    now = _cpu_state(child)
    if since is None or now is None:  # no /proc: the wall clock alone decides
        return False
    state, cpu_s = now
    cpu_then, wall_then = since
    return state == "R" and cpu_s - cpu_then < 0.5 * (time.monotonic() - wall_then)


def _cpu_mark(child: _Child) -> tuple[float, float] | None:
    now = _cpu_state(child)
    return None if now is None else (now[1], time.monotonic())


def _cpu_state(child: _Child) -> tuple[str, float] | None:
    """The child's scheduling state (``R``: runnable) and CPU seconds used, from ``/proc``; None elsewhere."""
    try:
        stat = Path(f"/proc/{child.process.pid}/stat").read_text(encoding="ascii")
        fields = stat[stat.rindex(")") + 2:].split()
        return fields[0], (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _frame_bytes(limits: ParseLimits) -> int:
    """The longest part of an answer the parent reads: more than the child can hold within its memory budget
    (twice it, since the child may also reuse memory it had mapped before the parse), and never under 64 MiB."""
    return max(2 * limits.max_memory_bytes, 64 * 1024 * 1024)


def _outcome(message: Reply | None, exitcode: int | None, *, killed: bool, filename: str,
             limits: ParseLimits) -> ChildParse:
    kind = message.kind if message else None
    if message is not None and kind == PARSED:
        return ChildParse(document=message.document, pages=message.pages, prepared=message.prepared)
    if message is not None and kind == REFUSED:
        raise _ingestion_error(message.error, message.message)
    if kind == MEMORY or exitcode == OUT_OF_MEMORY_EXIT or (exitcode == -signal.SIGKILL and not killed):
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


@dataclass(slots=True)
class _Job:
    """One document sent to a child; ``data`` is dropped once parsed, so the work past parsing has its memory."""

    data: bytes
    doc_id: str
    filename: str
    max_bytes: int
    media_type: str | None
    limits: ParseLimits
    request: PrepareRequest | None


def _serve(connection: Connection) -> None:
    """The child: for each document sent, limit itself, parse, send the staged document or why not.

    It runs at the lowest CPU and I/O priority (``limits.background``): its work waits for the
    service's, not the other way round. A child asked for the other priority retires.

    The memory budget counts from the child's size when it started, and a child whose size ever
    passed a quarter of the next document's budget retires instead of parsing it: each parse has
    about the budget a fresh child would, and ``_came_close_to`` sees that parse's own peak.
    Running out of memory anywhere in a document's work, building its answer included, answers
    ``memory``; where even that cannot be sent whole, the exit status ``OUT_OF_MEMORY_EXIT`` says it.
    """
    base = _virtual_bytes("VmPeak")  # a forked child may start with its parent's peak: count from there
    background: bool | None = None  # the priority it runs at, set by its first document
    while True:
        _unlimit_memory()  # the next document arrives whole, whatever the last parse left mapped
        peak = _virtual_bytes("VmPeak")  # what the parses so far reached, not counting the next document's bytes
        try:
            job = _Job(*connection.recv())
        except (EOFError, OSError):
            return
        except MemoryError:
            os._exit(OUT_OF_MEMORY_EXIT)
        limits = job.limits
        if _grew(base, peak, limits.max_memory_bytes) or background not in (None, limits.background):
            # Its heap would give this parse more than its budget, or it runs at another priority than asked.
            _send(connection, _RETIRED)
            return
        if background is None:
            background = limits.background
            if background:
                background_priority.lower_this_thread()
        # The cap counts from the size now, not from the inherited peak: a child whose parent once
        # peaked high would otherwise get that headroom on top of the budget.
        cap = _limit_self(limits, _virtual_bytes("VmSize"))
        _send(connection, _STARTED)
        try:
            answer, serves_on = _answer(connection, job, cap)
        except MemoryError:
            # Only here, out of the handler: the failed work's frames (its traceback held them) are freed.
            answer, serves_on = None, False
        del job
        if answer is None:
            release_memory()
            answer = _MEMORY
        _send(connection, answer)
        if not serves_on:
            return
        del answer
        release_memory()


def _send(connection: Connection, frames: list[bytes]) -> None:
    """Write a message; out of memory in the middle of it, exit: a half-written answer can be ended by no message."""
    try:
        send_frames(connection, frames)
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)


def _answer(connection: Connection, job: _Job, cap: int | None) -> tuple[list[bytes], bool]:
    """Parse ``job`` (and prepare it when asked): the answer's frames, and whether the child may serve another.

    Raises:
        MemoryError: the document, or its answer, needed more than the memory budget.
    """
    limits = job.limits
    try:
        document = parse_document(job.data, doc_id=job.doc_id, filename=job.filename, max_bytes=job.max_bytes,
                                  media_type=job.media_type, limits=limits, watchdog=False)
        job.data = b""
        encoded = staged.dump_document(document)
        pages = document.pages
        del document
        if job.request is not None:  # a fresh time budget for the work past parsing
            _limit_cpu(limits)
            _send(connection, _PREPARING)
        prepared = _prepared(encoded, job.request, job.filename)
        return parsed_frames(encoded, pages, prepared), True
    except IngestionError as exc:
        # A C library refused by the address-space limit reports a failed allocation its own way
        # (lxml: "unknown error", read as a damaged file): a failure after the parse came close to
        # the limit is the memory budget's.
        if isinstance(exc, CorruptDocumentError) and _came_close_to(cap, limits.max_memory_bytes):
            return _MEMORY, False
        return refused_frames(type(exc).__name__, exc.message), True


def _prepared(encoded: bytes, request: PrepareRequest | None, filename: str) -> PreparedDocument | None:
    """What the steps after parsing compute, or None when not asked or when it failed unexpectedly.

    Raises:
        MemoryError: it needed more than the memory budget (the parse's budget covers this too).
    """
    if request is None:
        return None

    try:
        return prepare(encoded, request)
    except MemoryError:
        raise
    except Exception:  # a bug, not the file: the steps redo it in the service's process, and fail there if it fails
        logger.exception("preparing a parsed document failed in the parse child", extra={"file_name": filename})
        return None


def _limit_self(limits: ParseLimits, base: int | None) -> int | None:
    """Soft limits on this process for the next parse: its address space at most ``base`` plus the memory budget,
    its CPU time grows by the time budget (soft only, so the next document's parse may set them again).

    Returns:
        The address-space limit set, or None where the process's size cannot be read.
    """
    cap = None if base is None else base + limits.max_memory_bytes
    if cap is not None:
        _set_soft_limit(resource.RLIMIT_AS, cap)
    _limit_cpu(limits)
    return cap


def _limit_cpu(limits: ParseLimits) -> None:
    """This process may use the time budget of CPU from now on; the kernel sends SIGXCPU past it, which ends it."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    _set_soft_limit(resource.RLIMIT_CPU, math.ceil(used.ru_utime + used.ru_stime + limits.timeout_s) + 1)


def _unlimit_memory() -> None:
    """Lift the address-space limit of the last parse (back to the hard limit) until the next one sets its own."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    _set_soft_limit(resource.RLIMIT_AS, hard)


def _grew(base: int | None, peak: int | None, budget: int) -> bool:
    """Whether this process's ``peak`` address space passed a quarter of ``budget`` over ``base``."""
    return base is not None and peak is not None and peak > base + budget // 4


def _came_close_to(cap: int | None, budget: int) -> bool:
    """Whether this process's peak address space reached the last quarter of the memory budget."""
    peak = _virtual_bytes("VmPeak")
    return cap is not None and peak is not None and peak >= cap - budget // 4


def _set_soft_limit(which: int, soft: int) -> None:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):  # a platform that refuses this limit: the parent's wall clock still holds
        logger.debug("rlimit not set", extra={"limit": which})


def _virtual_bytes(field: str) -> int | None:
    """A size line of this process's ``/proc/self/status`` (``VmSize``, ``VmPeak``) in bytes, or None elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
