"""The code node: Dify python3 code in a jailed child process with CPU, memory, process and time limits.

On Linux (``isolation="namespaces"``, the default) the code runs inside ``_code_jail.py``'s jail:
its own mount, network, PID, IPC and UTS namespaces, a read-only root holding only the
interpreter and the system libraries, a private tmpfs ``/work``, an unprivileged uid of its own,
rlimits on CPU, address space, processes, file size and open files, and an empty environment.
Where the host gives one, the run is also a control group of its own (``code_cgroup``): one
limit on processes, memory and CPU for all its processes together. Every process it starts
dies when the run ends (the jail's PID 1 exits, or the whole process group is killed at the
wall-clock limit, and whatever is left in the run's group is killed with it). When the jail
cannot be built the run is refused with ``WORKFLOW_CODE_ISOLATION_UNAVAILABLE``; nothing runs
unjailed unless an operator chose ``isolation="process"`` (rlimits, a process group and the
run's control group only: NOT a sandbox, for development hosts).
Inputs and the result travel as JSON over stdin/stdout; the reply is read up to its size limit
and only as the code's word (``code_reply``). Whether the jail was built is told by the jail
alone, on a status pipe the code never holds.
With ``remote`` set (AWS) the code runs in the code-runner Lambda function instead.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ragspine.workflows.errors import WorkflowCodeIsolationError, WorkflowNodeFailedError
from ragspine.workflows.run.child_slots import child_slot
from ragspine.workflows.run.code_cgroup import RunCgroup, RunLimits, create_run_cgroup
from ragspine.workflows.run.code_jail import JAIL, RUNNER, interpreter, jail_plan
from ragspine.workflows.run.code_reply import read_code_reply
from ragspine.workflows.shapes import as_map

if TYPE_CHECKING:
    from ragspine.workflows.run.nodes import NodeCall
    from ragspine.workflows.run.ports import CodeRunner

_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
}
Isolation = Literal["namespaces", "process"]


@dataclass(frozen=True, slots=True)
class CodeLimits:
    """Per-run limits of the code node, and the folders its jail must never expose."""

    timeout_seconds: float = 5.0
    memory_mb: int = 256
    max_output_bytes: int = 1024 * 1024
    max_processes: int = 16
    cpus: float = 1.0  # the whole run's CPU share, where a control group enforces it
    max_file_bytes: int = 1024 * 1024
    work_bytes: int = 8 * 1024 * 1024
    isolation: Isolation = "namespaces"
    protected: tuple[str, ...] = ()
    python: str = sys.executable
    # When set, the code runs there (AWS: the code-runner Lambda function) and not on this host at all.
    remote: CodeRunner | None = None

    def rlimits(self) -> dict[str, int]:
        """The jail's rlimits; CPU one second above the wall clock, so the clearer wall-clock kill comes first."""
        return {"cpu_seconds": math.ceil(self.timeout_seconds) + 1, "memory_bytes": self.memory_mb * 1024 * 1024,
                "processes": self.max_processes, "file_bytes": self.max_file_bytes, "open_files": 32}


def _limiter(limits: CodeLimits, group: RunCgroup | None) -> Callable[[], None] | None:
    """The rlimits of the unjailed ``process`` mode (Linux only; root ignores the process count),
    and the run's control group, joined before the code starts."""
    if not sys.platform.startswith("linux"):
        return None
    values = limits.rlimits()
    procs = group.procs_files if group is not None else []

    def apply() -> None:
        import resource

        for path in procs:  # raising here fails the start: the code never runs outside its group
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode("ascii"))
            finally:
                os.close(fd)

        resource.setrlimit(resource.RLIMIT_CPU, (values["cpu_seconds"], values["cpu_seconds"] + 1))
        resource.setrlimit(resource.RLIMIT_AS, (values["memory_bytes"], values["memory_bytes"]))
        resource.setrlimit(resource.RLIMIT_FSIZE, (values["file_bytes"], values["file_bytes"]))
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _start(limits: CodeLimits, workdir: str, group: RunCgroup | None, runner: Path,
           status: int | None) -> subprocess.Popen[bytes]:
    if limits.isolation == "process":
        return subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            [limits.python, "-I", "-S", "-X", "utf8", str(runner)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=workdir, env={}, start_new_session=True,
            preexec_fn=_limiter(limits, group))  # noqa: PLW1509 - rlimits must be set in the child
    if not sys.platform.startswith("linux"):
        raise WorkflowCodeIsolationError(
            f"code nodes need Linux namespaces for isolation and this host runs {sys.platform}; run the service "
            "on Linux, or (trusted workflows only) set RAGSPINE_WORKFLOW_CODE_ISOLATION=process")
    python = interpreter() if limits.python == sys.executable else os.path.realpath(limits.python)
    plan = jail_plan(root=workdir, python=python, limits=limits.rlimits(), work_bytes=limits.work_bytes,
                     protected=limits.protected)
    plan["cgroup_procs"] = group.procs_files if group is not None else []
    assert status is not None  # the jail's status pipe; every jailed run has one
    return subprocess.Popen(  # noqa: S603 - fixed argv, no shell
        [python, "-I", "-S", "-X", "utf8", str(JAIL), json.dumps(plan), str(status)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/", env={}, start_new_session=True,
        pass_fds=(status,))


def _feed(proc: subprocess.Popen[bytes], request: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(request)
        proc.stdin.close()
    except OSError:  # the child exited (or was killed) without reading everything
        pass


def read_until_limits(fd: int, limits: CodeLimits) -> tuple[bytes, str | None]:
    """What a child writes on ``fd``, read until EOF, the wall-clock limit or the output limit; and which limit
    stopped the reading (None: EOF). The caller kills the child when one did."""
    deadline = time.monotonic() + limits.timeout_seconds
    out = bytearray()
    stop: str | None = None
    # A selector (epoll), not select(): select() refuses descriptors numbered 1024 and above,
    # which a long-running service holding many files and sockets reaches.
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                stop = f"code exceeded the {limits.timeout_seconds:g} s time limit"
                break
            if not selector.select(left):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out.extend(chunk)
            if len(out) > limits.max_output_bytes:
                stop = f"code output exceeds {limits.max_output_bytes} bytes"
                break
    return bytes(out), stop


def _collect(proc: subprocess.Popen[bytes], request: bytes,
             limits: CodeLimits) -> tuple[bytes, str | None, float]:
    """The child's reply, read until EOF, the wall-clock limit or the output limit (then the group is killed), and
    the CPU seconds the child and the descendants it waited for used."""
    assert proc.stdout is not None
    threading.Thread(target=_feed, args=(proc, request), daemon=True).start()
    out, stop = read_until_limits(proc.stdout.fileno(), limits)
    if stop is not None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.stdout.close()
    # wait4 rather than proc.wait(): its resource usage tells a CPU limit reached from a SIGXCPU the code sent itself.
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return out, stop, usage.ru_utime + usage.ru_stime


def run_group(limits: CodeLimits) -> RunCgroup | None:
    """The run's control group where the host gives one (Linux), else None: rlimits alone."""
    if not sys.platform.startswith("linux"):
        return None
    # The group also holds the jail's launcher and its PID 1, besides the code's processes.
    return create_run_cgroup(RunLimits(processes=limits.max_processes + 2,
                                       memory_bytes=limits.memory_mb * 1024 * 1024, cpus=limits.cpus))


def exit_signal(returncode: int, limits: CodeLimits) -> int | None:
    """The signal that ended a child (jailed: as the jail's PID 1 reports it), or None."""
    if returncode < 0:
        return -returncode
    return returncode - 128 if limits.isolation == "namespaces" and returncode > 128 else None


@dataclass(frozen=True, slots=True)
class ChildExit:
    """How a limited child ended: its reply (up to the output limit), why the parent stopped it, its exit status,
    whether its control group ran out of memory, and why its jail could not be built (None: it was, or no jail)."""

    out: bytes
    stopped: str | None
    returncode: int
    out_of_memory: bool
    jail_error: str | None = None
    cpu_seconds: float = 0.0


def run_limited(runner: Path, request: bytes, limits: CodeLimits) -> ChildExit:
    """Run the child entry ``runner`` with ``request`` on its stdin, under ``limits``: rlimits, the run's control
    group where the host gives one, the wall clock, the reply's size limit, and every process it left killed.

    Only the code runner can run jailed (``isolation="namespaces"``): the jail holds no installed package.

    Raises:
        ValueError: another runner was asked to run jailed.
        OSError: the child could not be started.
        WorkflowNodeBusyError: every child slot stayed taken (``child_slots``).
    """
    if limits.isolation == "namespaces" and runner != RUNNER:
        raise ValueError("only the code runner runs in the jail")
    with child_slot():
        return _run_limited(runner, request, limits)


def _jail_status(read_end: int) -> str | None:
    """What the jail wrote on its status pipe once it ended: why it could not be built, or None (it was)."""
    os.set_blocking(read_end, False)  # a jail killed at the wall clock may leave it open a moment longer
    try:
        text = os.read(read_end, 4096)
    except BlockingIOError:
        text = b""
    return text.decode("utf-8", "replace").strip() or None


def _run_limited(runner: Path, request: bytes, limits: CodeLimits) -> ChildExit:
    group = run_group(limits)
    # The jail's status pipe: its write end goes to the jail alone, and the code never holds it.
    read_end, write_end = os.pipe() if limits.isolation == "namespaces" else (-1, -1)
    try:
        with tempfile.TemporaryDirectory(prefix="ragspine-code-") as workdir:
            try:
                proc = _start(limits, workdir, group, runner, write_end if write_end >= 0 else None)
            finally:
                if write_end >= 0:
                    os.close(write_end)
            out, stopped, cpu_seconds = _collect(proc, request, limits)
        jail_error = _jail_status(read_end) if read_end >= 0 else None
    finally:
        if read_end >= 0:
            os.close(read_end)
        out_of_memory = group is not None and group.out_of_memory()
        if group is not None:
            group.end()  # every process of the run, however it detached itself
    return ChildExit(out, stopped, proc.returncode, out_of_memory, jail_error, cpu_seconds)


def execute_python(code: str, inputs: Mapping[str, Any], limits: CodeLimits) -> dict[str, Any]:
    """Run ``main(**inputs)`` from ``code`` in a limited (by default jailed) child and return its dict.

    Raises:
        WorkflowCodeIsolationError: the required isolation cannot be built here; the code did not run.
        WorkflowNodeFailedError: the code raised, returned a non-dict, or hit a limit.
    """
    if limits.remote is not None:
        return limits.remote.run(code, inputs, limits)
    request = json.dumps({"code": code, "inputs": dict(inputs)}, ensure_ascii=False, default=str).encode("utf-8")
    ended = run_limited(RUNNER, request, limits)
    out = ended.out
    if ended.stopped is not None:
        raise WorkflowNodeFailedError(ended.stopped)
    if ended.out_of_memory:
        raise WorkflowNodeFailedError(f"code exceeded the {limits.memory_mb} MiB memory limit of the run "
                                      "(all its processes together)")
    if ended.jail_error is not None:  # the jail's own word: the code cannot write there
        raise WorkflowCodeIsolationError(
            f"the code node's isolation is unavailable on this host ({ended.jail_error}); the code was not run. It "
            "needs Linux and permission to create mount, network and PID namespaces (and, when not root, user ones)")
    ended_by = exit_signal(ended.returncode, limits)
    # The kernel sends SIGXCPU at the soft CPU limit and SIGKILL at the hard one (a code ignoring SIGXCPU).
    if ended_by in _CPU_LIMIT_SIGNALS and ended.cpu_seconds >= limits.timeout_seconds:
        raise WorkflowNodeFailedError(f"code exceeded the {limits.timeout_seconds:g} s CPU time limit")
    if ended_by is not None:  # the code sent itself a signal (a SIGXCPU too, before it used its CPU time)
        raise WorkflowNodeFailedError(f"code was ended by signal {_signal_name(ended_by)} before it returned a "
                                      "result")
    if ended.returncode != 0 or not out:
        raise WorkflowNodeFailedError(f"code ended without a result (exit status {ended.returncode}): it exited, "
                                      "or hit the memory or another limit")
    return read_code_reply(out)


_CPU_LIMIT_SIGNALS = frozenset({getattr(signal, "SIGXCPU", -1), signal.SIGKILL})


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _check_outputs(declared: Any, result: Mapping[str, Any]) -> None:
    if not isinstance(declared, Mapping):
        return
    for name, spec in declared.items():
        if name not in result:
            raise WorkflowNodeFailedError(f"code output {name!r} is missing")
        kind = str(as_map(spec).get("type", ""))
        check = _TYPES.get(kind, (lambda v: isinstance(v, list)) if kind.startswith("array") else None)
        if check is not None and result[name] is not None and not check(result[name]):
            raise WorkflowNodeFailedError(f"code output {name!r} is not of type {kind}")


def run_code(call: NodeCall) -> dict[str, Any]:
    """Run the node's python3 code with its bound variables; check declared outputs."""
    limits = call.code
    assert limits is not None  # checked before the run starts
    try:
        result = execute_python(str(call.step.config.get("code", "")), call.bound(), limits)
        _check_outputs(call.step.config.get("outputs"), result)
    except WorkflowNodeFailedError as exc:
        raise type(exc)(exc.message, node_id=call.step.node_id) from exc
    return result
