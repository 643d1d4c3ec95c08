"""A warm parent of template renders: imports Jinja2 and the step budget once, then forks one child per render.

Started by the service (``template_zygote``) as ``python -I -S -X utf8 _template_zygote.py <fd> <setup>``
with an empty environment in a session of its own. It stays single-threaded, so forking is safe.
It reads render orders from the Unix socket ``<fd>``: a JSON header (the order's id, the
control-group files to join, the working folder, the rlimits) with two descriptors, the child's
stdin and stdout. For each order it forks a child that starts a process group of its own, joins
the run's control group, moves to the order's empty working folder, closes every other
descriptor, sets its rlimits and runs ``_template_runner.entry``, the same code a cold child
runs. It answers ``{"id", "pid"}`` once the child exists and ``{"id", "status"}`` when it has
reaped it; the service holds the wall clock and kills the child's group. Like the runner it
imports no project package. It exits when the service closes the socket.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import selectors
import signal
import socket
import sys
from types import ModuleType
from typing import Any

_LIMITS = {"cpu_seconds": resource.RLIMIT_CPU, "memory_bytes": resource.RLIMIT_AS,
           "file_bytes": resource.RLIMIT_FSIZE, "open_files": resource.RLIMIT_NOFILE}
_START_FAILED = 70


def _load(name: str, path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _become_render(order: dict[str, Any], stdin_fd: int, stdout_fd: int, runner: ModuleType) -> None:
    """In the forked child: the same limits a cold child gets, then the render. Never returns."""
    try:
        os.setsid()
        for path in order["procs"]:  # raising here ends the child: it never renders outside its group
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode("ascii"))
            finally:
                os.close(fd)
        os.chdir(order["cwd"])
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.dup2(stdin_fd, 0)
        os.dup2(stdout_fd, 1)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])  # the socket and other orders' pipes
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        for name, value in order["rlimits"].items():  # the open-file limit last: set, the child is ready
            soft = int(value)
            resource.setrlimit(_LIMITS[name], (soft, soft + 1 if name == "cpu_seconds" else soft))
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process ends with the render
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        runner.entry()
        sys.stdout.flush()
    except BaseException:  # noqa: BLE001 - no traceback to anyone: the parent reads a missing reply
        os._exit(_START_FAILED)
    os._exit(0)


def _serve(channel: socket.socket, runner: ModuleType) -> None:
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    os.set_blocking(wake_read, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    orders: dict[int, int] = {}  # child pid -> order id
    with selectors.DefaultSelector() as selector:
        selector.register(channel, selectors.EVENT_READ)
        selector.register(wake_read, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                if key.fileobj is channel:
                    message, fds, _flags, _address = socket.recv_fds(channel, 65536, 2)
                    if not message:
                        return
                    order = json.loads(message)
                    try:
                        pid = os.fork()
                        if pid == 0:
                            _become_render(order, fds[0], fds[1], runner)
                        orders[pid] = order["id"]
                        channel.send(json.dumps({"id": order["id"], "pid": pid}).encode("ascii"))
                    except OSError as exc:
                        channel.send(json.dumps({"id": order["id"], "error": str(exc)}).encode("ascii"))
                    finally:
                        for fd in fds:
                            os.close(fd)
                else:
                    while True:
                        try:
                            if not os.read(wake_read, 512):
                                break
                        except BlockingIOError:
                            break
            while orders:
                pid, status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid in orders:
                    channel.send(json.dumps({"id": orders.pop(pid), "status": status}).encode("ascii"))


def main() -> None:
    """Warm up, say so, then serve orders until the service goes away."""
    channel = socket.socket(fileno=int(sys.argv[1]))
    setup = json.loads(sys.argv[2])
    sys.path[:0] = [str(path) for path in setup["paths"]]
    importlib.import_module("jinja2.sandbox")  # from the folders just added; once here, inherited by every render

    _load("template_budget", str(setup["budget"]))
    runner = _load("_template_runner", str(setup["runner"]))
    channel.send(b'{"ready": true}')
    _serve(channel, runner)


if __name__ == "__main__":
    main()
