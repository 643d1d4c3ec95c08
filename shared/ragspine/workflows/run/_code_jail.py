"""Child-process entry that builds the code node's jail on Linux, then runs the code runner inside it.

Runs as ``python -I -S _code_jail.py <plan-json> <status-fd>`` with an empty environment. It imports only
the standard library. Steps:

0. where the host gives one, it joins the run's control group (``code_cgroup``: limits on
   processes, memory and CPU for the run as a whole), before it starts anything;
1. new mount, network, PID, IPC and UTS namespaces (no network but a down loopback; no view of
   the service's processes);
2. a fork: the child is PID 1 of the new PID namespace, so when it exits the kernel kills every
   process the code started, ``setsid`` or not; it dies with this launcher (PDEATHSIG);
3. a fresh tmpfs root holding read-only binds of the interpreter and the system libraries only
   (no /etc but the loader cache, no /proc, no data folder, no home) and a small writable /work;
4. ``pivot_root`` into it, the old root detached, then a switch to an unprivileged uid with
   ``no_new_privs`` set (run by a non-root user, a user namespace is created first, mapping that
   user alone to the run's uid; the runner's exec then drops the namespace's capabilities);
5. a second fork that sets the rlimits, loads the seccomp filter (a BPF program compiled by the
   parent, ``code_seccomp``) and execs the runner; PID 1 waits for it and exits.

Any failure before the runner starts writes its reason on the status pipe (``<status-fd>``) and
exits with ``ISOLATION_FAILED``, so the parent refuses the run instead of running the code
unjailed. The code never holds that pipe: it is close-on-exec, so the runner's exec closes it,
and the launcher and PID 1 close their copies once they have forked. Only what arrives there
tells the parent the jail is missing; the exit status alone (which the code sets) never does.
It runs as root, or as any user where unprivileged user namespaces are allowed.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import platform
import resource
import signal
import sys
from pathlib import Path

ISOLATION_FAILED = 71
_CLONE_FLAGS = 0x00020000 | 0x04000000 | 0x08000000 | 0x20000000 | 0x40000000  # NS, UTS, IPC, PID, NET
_CLONE_NEWUSER = 0x10000000
# statvfs flags a bind must keep when remounted inside a user namespace (the kernel locks them); same bits as MS_*.
_KEPT_FLAGS, _ST_RELATIME, _MS_RELATIME = 1 | 2 | 4 | 8 | 1024 | 2048, 4096, 1 << 21
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
_MNT_DETACH = 2
_PR_SET_PDEATHSIG, _PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 1, 38, 22, 2
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom")
_LIMITS = (("RLIMIT_CPU", "cpu_seconds"), ("RLIMIT_AS", "memory_bytes"), ("RLIMIT_NPROC", "processes"),
           ("RLIMIT_FSIZE", "file_bytes"), ("RLIMIT_NOFILE", "open_files"))

_libc = ctypes.CDLL(None, use_errno=True)


class JailError(Exception):
    """A step of the jail could not be taken."""


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise JailError(f"{what}: {os.strerror(errno)} (errno {errno})")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    def enc(value: str | None) -> bytes | None:
        return None if value is None else value.encode()

    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def _kept_flags(source: str) -> int:
    flags = os.statvfs(source).f_flag
    return (flags & _KEPT_FLAGS) | (_MS_RELATIME if flags & _ST_RELATIME else 0)


def _bind_read_only(source: str, root: str, *, device: bool = False) -> None:
    target = Path(root + source)
    if Path(source).is_dir():
        target.mkdir(parents=True, exist_ok=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    _mount(source, str(target), None, _MS_BIND | _MS_REC)
    flags = _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | (0 if device else _MS_NODEV)
    _mount(None, str(target), None, flags | _kept_flags(source))


def _build_root(plan: dict[str, object]) -> None:
    root = str(plan["root"])
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    _mount("ragspine-code", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0755")
    for link in plan["links"]:  # type: ignore[attr-defined]
        Path(root + link).parent.mkdir(parents=True, exist_ok=True)
        Path(root + link).symlink_to(Path(link).readlink())
    for path in plan["binds"]:  # type: ignore[attr-defined]
        _bind_read_only(path, root)
    for path in _DEVICES:
        _bind_read_only(path, root, device=True)
    uid = int(plan["uid"])  # type: ignore[call-overload]
    Path(root, "work").mkdir()
    _mount("ragspine-work", root + "/work", "tmpfs", _MS_NOSUID | _MS_NODEV,
           f"size={int(plan['work_bytes'])},mode=0700,uid={uid},gid={uid}")  # type: ignore[call-overload]
    runner = Path(root, "run", "runner.py")
    runner.parent.mkdir()
    runner.write_text(str(plan["runner_source"]), encoding="utf-8")
    runner.chmod(0o444)
    os.chdir(root)
    number = _SYS_PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise JailError(f"pivot_root is not known on {platform.machine()}")
    _check(_libc.syscall(number, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", _MNT_DETACH), "detach the old root")
    os.chdir("/")
    _mount(None, "/", None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)


def _drop_privileges(uid: int, *, rootless: bool) -> None:
    if rootless:  # already ``uid`` inside the user namespace; exec drops the capabilities a non-zero uid holds
        _check(_libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        return
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _check(_libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if os.geteuid() != uid or os.getegid() != uid:
        raise JailError("could not switch to the unprivileged user")


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def _load_seccomp(program_hex: str) -> None:
    """Load the BPF program (``struct sock_filter`` entries of 8 bytes) as this process's seccomp filter.

    ``no_new_privs`` is set already, so no capability is needed; the filter stays across exec
    and is inherited by every process the code starts.
    """
    program = bytes.fromhex(program_hex)
    if not program or len(program) % 8:
        raise JailError("the seccomp program is empty or malformed")
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(_libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "load the seccomp filter")


def _exec_runner(plan: dict[str, object]) -> None:
    limits: dict[str, int] = plan["limits"]  # type: ignore[assignment]
    for name, key in _LIMITS:
        value = int(limits[key])
        hard = value + 1 if name == "RLIMIT_CPU" else value
        resource.setrlimit(getattr(resource, name), (value, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.chdir("/work")
    _load_seccomp(str(plan["seccomp"]))
    python = str(plan["python"])
    os.execve(python, [python, "-I", "-S", "-X", "utf8", "/run/runner.py"], {})


def _status(wait_status: int) -> int:
    return 128 + os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else os.WEXITSTATUS(wait_status)


def _map_user(uid: int, outer_uid: int, outer_gid: int) -> None:
    """Inside the new user namespace the launcher's own user is ``uid``, with no other user or group mapped."""
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {outer_uid} 1"), ("gid_map", f"{uid} {outer_gid} 1")):
        with Path("/proc/self", name).open("w") as handle:
            handle.write(text)


def _init(plan: dict[str, object], *, rootless: bool) -> int:
    """PID 1 of the jail: build it, start the runner, reap until the runner ends."""
    # The launcher is in the same process group, so a wall-clock kill reaches this process either way.
    _check(_libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
    status = int(plan["status_fd"])  # type: ignore[call-overload]
    _build_root(plan)
    _drop_privileges(int(plan["uid"]), rootless=rootless)  # type: ignore[call-overload]
    runner = os.fork()
    if runner == 0:
        try:
            _exec_runner(plan)
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent
            _fail(exc, status)
        finally:
            os._exit(ISOLATION_FAILED)
    os.close(status)  # the runner's copy alone stays, until its exec
    while True:
        pid, wait_status = os.waitpid(-1, 0)
        if pid == runner:
            return _status(wait_status)


def _join_cgroup(procs_files: list[str]) -> None:
    """Move this launcher into the run's control group first, so every process it starts is in it too."""
    for path in procs_files:
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode("ascii"))
            finally:
                os.close(fd)
        except OSError as exc:
            raise JailError(f"join the run's control group {path}: {exc.strerror or exc}") from None


def _fail(error: BaseException, status: int) -> int:
    # Already closed where this process forked the runner and failed after that: nothing to tell then.
    with contextlib.suppress(OSError):
        os.write(status, f"{type(error).__name__}: {error}"[:500].encode("utf-8", "replace"))
    return ISOLATION_FAILED


def main() -> int:
    """Enter the namespaces, fork PID 1, relay its exit status."""
    status = int(sys.argv[2])
    os.set_inheritable(status, False)  # closed by the runner's exec, before any of the code runs
    try:
        plan = json.loads(sys.argv[1])
        plan["status_fd"] = status
        _join_cgroup(plan.get("cgroup_procs", []))
        rootless = os.geteuid() != 0
        outer_uid, outer_gid = os.geteuid(), os.getegid()
        _check(_libc.unshare(_CLONE_FLAGS | (_CLONE_NEWUSER if rootless else 0)), "unshare namespaces")
        if rootless:
            _map_user(int(plan["uid"]), outer_uid, outer_gid)
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent
        return _fail(exc, status)
    child = os.fork()
    if child == 0:
        try:
            code = _init(plan, rootless=rootless)
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent
            code = _fail(exc, status)
        os._exit(code)
    os.close(status)
    os.close(0)
    os.close(1)
    _, wait_status = os.waitpid(child, 0)
    return _status(wait_status)


if __name__ == "__main__":
    sys.exit(main())
