"""Give the memory a large piece of work freed back to the operating system.

CPython returns its own small-object arenas when they empty, but everything larger (a passage's
text, a list's item array, a decoded row) comes from the C library's ``malloc``. glibc keeps
what is freed inside its heaps for reuse and gives back only the free space at the top of each
heap: after a large document's steps, whose objects are freed among the few that live on, the
service's resident memory stayed hundreds of megabytes above what it uses. ``malloc_trim(0)``
releases every free page of every heap (each thread's arena too). Other C libraries (musl,
macOS) have no such call, or return memory by themselves; there this does nothing.
"""

from __future__ import annotations

import ctypes
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_holders = 0
_trim: list[Callable[[int], int] | None] = []  # found once: glibc's malloc_trim, or None


def _malloc_trim() -> Callable[[int], int] | None:
    if not _trim:
        try:
            function = ctypes.CDLL(None).malloc_trim  # the process's own symbols: the C library it runs on
            function.argtypes, function.restype = [ctypes.c_size_t], ctypes.c_int
            _trim.append(function)
        except (OSError, AttributeError, TypeError):  # not glibc; TypeError: Windows loads no library by None
            _trim.append(None)
    return _trim[0]


def give_back_freed_memory() -> bool:
    """Return the C library's free pages to the operating system; False where the library has no way to.

    A ctypes call releases the interpreter lock, so the routes' threads run meanwhile.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@contextmanager
def freed_memory_given_back() -> Iterator[None]:
    """Run the body; when the last body running in the process ends, give back what they freed.

    Concurrent bodies (ingestion steps on several workers) share one trim at the end of the last:
    one running beside would reuse the free pages anyway.
    """
    global _holders
    with _lock:
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            last = _holders == 0
        if last:
            given = give_back_freed_memory()
            logger.debug("freed memory given back", extra={"trimmed": given})
