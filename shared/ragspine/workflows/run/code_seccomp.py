"""The code node jail's seccomp filter: the system calls jailed code is refused, compiled once to BPF.

``pyseccomp`` (MIT; a ctypes binding of the system's ``libseccomp.so.2``) compiles the rules for
this machine's architecture; the jail (``_code_jail.py``, standard library only) loads the
compiled program with ``prctl`` right before it execs the runner, after every step that needed
those calls (mounts, ``pivot_root``, the switch of user). Everything listed fails with ``EPERM``
(Python: ``PermissionError``); ``clone3`` fails with ``ENOSYS`` so that the C library falls back
to ``clone``, whose namespace flags the filter can read. A call not listed is allowed: the
filter narrows what the kernel exposes to the code, the namespaces and the uid still do the
confining.
"""

from __future__ import annotations

import errno
import tempfile
from functools import lru_cache
from typing import Any

from ragspine.workflows.errors import WorkflowCodeIsolationError

AF_UNIX = 1
# Namespace flags of clone(): a new namespace would give the code capabilities inside it.
_CLONE_NEW = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
# Refused outright: tracing and reading other processes, mounting, namespaces, the kernel's
# keyrings, BPF and performance counters, io_uring (whose operations a filter cannot see),
# modules and other administration of the host.
DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount",
    "fspick", "mount_setattr", "unshare", "setns",
    "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
    "acct", "quotactl", "syslog", "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "vhangup",
    "iopl", "ioperm", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname",
    "setdomainname", "personality",
)


@lru_cache(maxsize=1)
def seccomp_program() -> str:
    """The filter as a BPF program (``struct sock_filter`` array), hex-encoded for the jail's plan.

    Raises:
        WorkflowCodeIsolationError: ``pyseccomp`` or the system's ``libseccomp`` is missing, or a
            rule cannot be compiled here: the code is not run without its filter.
    """
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped]

        rules = seccomp.SyscallFilter(seccomp.ALLOW)
        refuse = seccomp.ERRNO(errno.EPERM)
        for name in DENIED:
            _add(seccomp, rules, refuse, name)
        # Sockets: only local ones (the code has no network, and the kernel's netlink and packet
        # sockets would still show the host's interfaces and routes).
        for call in ("socket", "socketpair"):
            rules.add_rule(refuse, call, seccomp.Arg(0, seccomp.NE, AF_UNIX))
        for flag in _CLONE_NEW:
            rules.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
        _add(seccomp, rules, seccomp.ERRNO(errno.ENOSYS), "clone3")
        with tempfile.TemporaryFile() as out:
            rules.export_bpf(out)
            out.seek(0)
            program = out.read()
    except (ImportError, OSError, RuntimeError, ValueError) as exc:
        raise WorkflowCodeIsolationError(
            f"the code node's seccomp filter cannot be built on this host ({type(exc).__name__}: {exc}); the code "
            "was not run. Install libseccomp (Debian: libseccomp2) and the pyseccomp package") from exc
    if not program or len(program) % 8:
        raise WorkflowCodeIsolationError("the code node's seccomp filter compiled to no program; the code was not run")
    return program.hex()


def _add(seccomp: Any, rules: Any, action: int, name: str) -> None:
    """One rule, skipped only for a call this architecture does not have (it cannot be made here anyway)."""
    try:
        number = seccomp.resolve_syscall(seccomp.system_arch(), name)
    except ValueError:
        return
    if number >= 0:
        rules.add_rule(action, name)
