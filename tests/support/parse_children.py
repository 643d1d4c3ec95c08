"""The child process parsing a document, misbehaving: signals as a crash or the out-of-memory killer would send,
or answers as a child that a malicious document took over would give."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ragspine.ingestion.parsers import isolated


@contextmanager
def signal_next_parse_child() -> Iterator[list[signal.Signals]]:
    """Each signal appended to the yielded list goes to the next parse child, 0.2 s into its parse."""
    signals: list[signal.Signals] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.005):
            children = parse_children()
            if children and signals and children[0].pid is not None:
                time.sleep(0.2)
                os.kill(children[0].pid, signals.pop(0))

    watcher = threading.Thread(target=watch, name="signal-parse-child", daemon=True)
    watcher.start()
    try:
        yield signals
    finally:
        done.set()
        watcher.join()


def parse_children(name: str = "ragspine-parse") -> list[multiprocessing.process.BaseProcess]:
    """The parse children of this process still running, parsing (or idle, by ``name``).

    ``active_children`` reads the exit status of every child that ended: under the service's lock, as the service
    reads it, or a child the service is ending at that moment would be reported to it as exit status 255.
    """
    with isolated.process_lock:
        return [c for c in multiprocessing.active_children() if c.name == name]


@contextmanager
def hostile_parse_child(frames: list[bytes], *, raw: bytes = b"") -> Iterator[None]:
    """The next document goes to a child that answers with ``frames`` (then ``raw``, written past the framing).

    It stands for a parse child that a malicious document took over: a real process, handed to the
    service as an idle child, that reads the job and then sends whatever it is told to.
    """
    context = isolated._multiprocessing_context()
    ours, theirs = context.Pipe(duplex=True)
    process = context.Process(target=_answer_with, args=(theirs, frames, raw),  # type: ignore[attr-defined]
                              name="ragspine-parse-idle", daemon=True)
    with isolated.process_lock:
        process.start()
    theirs.close()
    with isolated._idle_lock:
        isolated._idle.append(isolated._Child(process, ours))
    try:
        yield
    finally:
        with isolated._idle_lock:
            left = [c for c in isolated._idle if c.process is process]
            for child in left:
                isolated._idle.remove(child)
        try:
            with isolated.process_lock:
                if process.is_alive():
                    process.kill()
                    process.join(5)
        except ValueError:  # the service ended it and closed its process object
            pass


def _answer_with(connection: multiprocessing.connection.Connection, frames: list[bytes], raw: bytes) -> None:
    connection.recv()  # the job
    for frame in frames:
        connection.send_bytes(frame)
    if raw:
        os.write(connection.fileno(), raw)
    try:
        connection.recv_bytes()  # until the service closes the connection or kills this process
    except (EOFError, OSError):
        return


class RunsOnUnpickling:
    """Unpickling this calls ``os.mkdir(path)``: any code could stand in its place."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (self.path,)
