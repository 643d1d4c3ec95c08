"""The code node's jail refuses dangerous system calls (seccomp), and refuses to run code it cannot filter."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

import pytest

from ragspine.workflows.errors import WorkflowCodeIsolationError, WorkflowNodeFailedError
from ragspine.workflows.run import code_jail
from ragspine.workflows.run.code_node import CodeLimits, execute_python
from ragspine.workflows.run.code_seccomp import seccomp_program

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0,
                                reason="the namespace jail is built by root on Linux")

PROBE = """
def main():
    import ctypes, json, os, socket, threading
    libc = ctypes.CDLL(None, use_errno=True)
    found = {}

    def call(name, *args):
        return "allowed" if getattr(libc, name)(*args) >= 0 else os.strerror(ctypes.get_errno())

    found["ptrace"] = call("ptrace", 0, 0, 0, 0)  # PTRACE_TRACEME
    found["unshare_user"] = call("unshare", 0x10000000)  # CLONE_NEWUSER
    found["keyctl"] = call("syscall", 250, 0, 0, 0, 0)  # x86-64 keyctl(KEYCTL_GET_KEYRING_ID)
    found["bpf"] = call("syscall", 321, 0, 0, 0)
    for family, kind in (("AF_INET", socket.SOCK_STREAM), ("AF_INET6", socket.SOCK_DGRAM),
                         ("AF_NETLINK", socket.SOCK_RAW), ("AF_UNIX", socket.SOCK_STREAM)):
        try:
            socket.socket(getattr(socket, family), kind).close()
            found[family] = "allowed"
        except OSError as exc:
            found[family] = f"{type(exc).__name__}: {exc.strerror}"
    worker = threading.Thread(target=lambda: None)
    worker.start()
    worker.join()
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    found["fork_exit"] = os.waitpid(pid, 0)[1] >> 8
    return {"report": json.dumps(found)}
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the probe names x86-64 system call numbers")
def test_jailed_code_is_refused_tracing_namespaces_keyrings_bpf_and_network_sockets() -> None:
    report = json.loads(execute_python(PROBE, {}, CodeLimits())["report"])
    refused = "Operation not permitted"
    assert report == {"ptrace": refused, "unshare_user": refused, "keyctl": refused, "bpf": refused,
                      "AF_INET": f"PermissionError: {refused}", "AF_INET6": f"PermissionError: {refused}",
                      "AF_NETLINK": f"PermissionError: {refused}",
                      # What ordinary code needs still works: local sockets, threads, child processes.
                      "AF_UNIX": "allowed", "fork_exit": 7}


def test_a_refused_call_fails_the_node_with_a_clear_error() -> None:
    source = "def main():\n    import socket\n    socket.create_connection(('10.0.0.1', 80), timeout=1)\n    return {}"
    with pytest.raises(WorkflowNodeFailedError) as caught:
        execute_python(source, {}, CodeLimits())
    assert caught.value.code == "WORKFLOW_NODE_FAILED"
    assert "code failed: PermissionError: [Errno 1] Operation not permitted" in caught.value.message


@pytest.fixture
def without_pyseccomp(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    seccomp_program.cache_clear()
    monkeypatch.setitem(sys.modules, "pyseccomp", None)  # importing it now raises ImportError
    yield
    seccomp_program.cache_clear()


def test_without_its_filter_library_the_jail_refuses_to_run_the_code(without_pyseccomp: None) -> None:
    with pytest.raises(WorkflowCodeIsolationError) as caught:
        execute_python("def main():\n    return {}", {}, CodeLimits())
    assert caught.value.code == "WORKFLOW_CODE_ISOLATION_UNAVAILABLE" and caught.value.http_status == 503
    assert "seccomp filter cannot be built" in caught.value.message and "was not run" in caught.value.message


def test_a_filter_the_kernel_refuses_stops_the_run_before_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    # One BPF instruction that jumps past the end of the program: the kernel refuses to load it.
    monkeypatch.setattr(code_jail, "seccomp_program", lambda: "0500000009000000")
    with pytest.raises(WorkflowCodeIsolationError) as caught:
        execute_python("def main():\n    return {'ran': 'yes'}", {}, CodeLimits())
    assert caught.value.code == "WORKFLOW_CODE_ISOLATION_UNAVAILABLE"
    assert "load the seccomp filter: Invalid argument" in caught.value.message and "was not run" in caught.value.message
