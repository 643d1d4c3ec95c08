"""The service's side of the warm template parent: render children forked from a process that imported Jinja2 once.

A cold render child spends almost all its time starting the interpreter and importing Jinja2.
``_template_zygote.py`` does that once, single-threaded, in its own session with an empty
environment, and forks one child per render. Each child gets what a cold child gets: its own
process group, the run's control group where the host gives one, the same rlimits (address
space, CPU seconds, file size, open files) and no descriptor but its stdin and stdout. This side
keeps what the parent of a cold child keeps: the wall clock (then the child's whole group is
killed), the reply's size limit, and the exit status (the warm parent reaps and reports it).

One warm parent serves the process; it starts on the first render and again after it died.
Where it cannot start (not Linux, or it failed), renders fall back to cold children.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from ragspine.workflows.run.code_node import ChildExit, CodeLimits, read_until_limits, run_group

ZYGOTE = Path(__file__).resolve().with_name("_template_zygote.py")
READY_SECONDS = 30.0  # an interpreter start and the Jinja2 import, on a loaded host


class ZygoteUnavailableError(OSError):
    """The warm parent is not running (it could not start, or it died): render in a cold child instead."""


class TemplateZygote:
    """One warm parent and the renders in flight through it."""

    def __init__(self, *, paths: tuple[str, ...], budget: Path, runner: Path, python: str = sys.executable) -> None:
        self._setup = json.dumps({"paths": list(paths), "budget": str(budget), "runner": str(runner)})
        self._python = python
        self._lock = threading.Lock()
        self._channel: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._next_id = 0
        self._started: dict[int, Future[int]] = {}  # order id -> the child's pid
        self._ended: dict[int, Future[int]] = {}  # order id -> the child's wait status

    def render(self, request: bytes, limits: CodeLimits) -> ChildExit:
        """Fork a render child for ``request`` under ``limits`` and collect it as a cold child is collected.

        Raises:
            ZygoteUnavailableError: the warm parent is not running, could not fork, or went away mid-render.
        """
        group = run_group(limits)
        try:
            with tempfile.TemporaryDirectory(prefix="ragspine-template-") as workdir:  # its cwd, as a cold child's
                pid, reply, ended = self._fork(limits, group.procs_files if group is not None else [], workdir,
                                               request)
                try:
                    out, stopped = read_until_limits(reply, limits)
                    if stopped is not None and not ended.done():
                        _kill(pid)
                finally:
                    os.close(reply)
                status = ended.result(timeout=READY_SECONDS)
        finally:
            out_of_memory = group is not None and group.out_of_memory()
            if group is not None:
                group.end()  # whatever the render left in the run's group
        return ChildExit(out, stopped, os.waitstatus_to_exitcode(status), out_of_memory)

    def start(self) -> None:
        """Start the warm parent now rather than on the first render.

        Raises:
            ZygoteUnavailableError: it cannot start here.
        """
        with self._lock:
            self._running()

    def close(self) -> None:
        """Stop the warm parent (it exits when its socket closes)."""
        with self._lock:
            channel, process = self._channel, self._process
            self._channel = self._process = None
        if channel is not None:
            channel.close()
        if process is not None:
            process.wait(timeout=READY_SECONDS)

    def _fork(self, limits: CodeLimits, procs: list[str], workdir: str,
              request: bytes) -> tuple[int, int, Future[int]]:
        """Order a child: its pid once it exists, the descriptor its reply arrives on, the future of its wait status.

        The request is fed to its stdin from a thread (a child that reads nothing cannot block the service).
        """
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        started: Future[int] = Future()
        ended: Future[int] = Future()
        try:
            with self._lock:
                channel = self._running()
                self._next_id += 1
                order_id = self._next_id
                self._started[order_id], self._ended[order_id] = started, ended
                order = {"id": order_id, "procs": procs, "cwd": workdir, "rlimits": _child_rlimits(limits)}
                try:
                    socket.send_fds(channel, [json.dumps(order).encode("ascii")], [stdin_read, stdout_write])
                except OSError as exc:
                    self._fail_all(ZygoteUnavailableError(f"the warm template parent is gone ({exc})"))
            pid = started.result(timeout=READY_SECONDS)
        except BaseException:
            os.close(stdin_write)
            os.close(stdout_read)
            raise
        finally:
            os.close(stdin_read)
            os.close(stdout_write)
        threading.Thread(target=_feed, args=(stdin_write, request), daemon=True).start()
        return pid, stdout_read, ended

    def _running(self) -> socket.socket:
        """The channel to a running warm parent, starting one if needed (the caller holds the lock)."""
        if self._channel is not None and self._process is not None and self._process.poll() is None:
            return self._channel
        if not sys.platform.startswith("linux"):
            raise ZygoteUnavailableError("the warm template parent needs Linux (fork and descriptor passing)")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
                [self._python, "-I", "-S", "-X", "utf8", str(ZYGOTE), str(theirs.fileno()), self._setup],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/", env={},
                start_new_session=True, pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        ours.settimeout(READY_SECONDS)
        try:
            ready = ours.recv(64)
        except OSError as exc:
            process.kill()
            process.wait()
            ours.close()
            raise ZygoteUnavailableError(f"the warm template parent did not start ({exc})") from exc
        if not ready.startswith(b'{"ready"'):
            process.wait()
            ours.close()
            raise ZygoteUnavailableError("the warm template parent did not start (it exited)")
        ours.settimeout(None)
        self._channel, self._process = ours, process
        threading.Thread(target=self._listen, args=(ours,), name="template-zygote-reader", daemon=True).start()
        return ours

    def _listen(self, channel: socket.socket) -> None:
        """Hand each answer of the warm parent to the render waiting for it; fail them all when it goes away."""
        while True:
            try:
                message = channel.recv(65536)
            except OSError:
                message = b""
            if not message:
                with self._lock:
                    if self._channel is channel:
                        self._channel = None
                    self._fail_all(ZygoteUnavailableError("the warm template parent went away"))
                return
            answer: dict[str, Any] = json.loads(message)
            with self._lock:
                order_id = int(answer["id"])
                if "pid" in answer:
                    _settle(self._started.pop(order_id, None), int(answer["pid"]))
                elif "status" in answer:
                    _settle(self._ended.pop(order_id, None), int(answer["status"]))
                else:
                    failure = ZygoteUnavailableError(f"the warm template parent could not fork ({answer.get('error')})")
                    for pending in (self._started.pop(order_id, None), self._ended.pop(order_id, None)):
                        if pending is not None and not pending.done():
                            pending.set_exception(failure)

    def _fail_all(self, error: BaseException) -> None:
        for pending in (*self._started.values(), *self._ended.values()):
            if not pending.done():
                pending.set_exception(error)
        self._started.clear()
        self._ended.clear()


def _settle(pending: Future[int] | None, value: int) -> None:
    if pending is not None and not pending.done():
        pending.set_result(value)


def _child_rlimits(limits: CodeLimits) -> dict[str, int]:
    """The rlimits a cold render child sets on itself (``code_node``'s ``process`` mode)."""
    values = limits.rlimits()
    return {"cpu_seconds": values["cpu_seconds"], "memory_bytes": values["memory_bytes"],
            "file_bytes": values["file_bytes"], "open_files": 32}


def _feed(fd: int, request: bytes) -> None:
    try:
        with open(fd, "wb", closefd=True) as pipe:
            pipe.write(request)
    except OSError:  # the child exited (or was killed) without reading everything
        pass


def _kill(pid: int) -> None:
    """Kill the render's process group (its pid: the render started the group), and the render itself."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
