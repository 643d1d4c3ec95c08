"""Code nodes run jailed: through the real app with both run gates on, hostile code reaches nothing of the service.

Each probe is a Dify workflow (start -> code -> end) run by ``POST /v1/workflows/run`` on the
local app wired from settings, so the limits are the ones a deployment gets. The code reports
what it could reach; the test checks that and the host after the run (files, processes).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from ragspine.bootstrap import build_workflow_components
from ragspine.knowledge.files import signing_key
from ragspine.knowledge.identity import secret_file
from ragspine.settings import Settings, load_settings
from ragspine.workflows.errors import WorkflowCodeIsolationError
from ragspine.workflows.run import NOT_A_RESULT
from ragspine.workflows.run.code_node import CodeLimits, execute_python
from ragspine.workflows.surfaces.components import WorkflowComponents
from ragspine.workflows.surfaces.key_admin import create_app_key
from tests.support.leftover_processes import killed_after, processes_with
from tests.support.workflow_api import close_stores
from tests.unit.workflows.samples import code, dsl, edge, end, start

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0,
                                reason="the namespace jail is built by root on Linux")


@dataclass
class Service:
    client: Any
    components: WorkflowComponents
    data_dir: Path

    def run(self, source: str) -> dict[str, Any]:
        """Run ``source`` as a code node whose ``main()`` returns ``{"report": <json text>}``."""
        document = dsl([start(), code("c", source, {"report": "string"}), end(("report", ["c", "report"]))],
                       [edge("start", "c"), edge("c", "end")])
        key = create_app_key(self.components, document=document).plaintext
        reply = self.client.post("/v1/workflows/run", json={"inputs": {}, "user": "probe", "response_mode": "blocking"},
                                 headers={"Authorization": f"Bearer {key}"})
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()["data"]
        return data

    def report(self, source: str) -> dict[str, Any]:
        data = self.run(source)
        assert data["status"] == "succeeded", data
        report: dict[str, Any] = json.loads(data["outputs"]["report"])
        return report


@pytest.fixture
def service(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    monkeypatch.setenv("RAGSPINE_PROBE_SECRET", "service-environment-secret")
    tuned = load_settings(data_dir=settings.data_dir, dify_run_enabled=True, workflow_code_enabled=True)
    tuned.data_dir.mkdir(parents=True, exist_ok=True)
    components = build_workflow_components(tuned, llm=None)
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    with TestClient(app) as client:
        yield Service(client, components, tuned.data_dir)
    close_stores(components)


READER = """
def main():
    import json
    found = {}
    for path in PATHS:
        try:
            with open(path, "rb") as handle:
                found[path] = handle.read(4096).decode("latin-1")
        except Exception as exc:
            found[path] = "refused: " + type(exc).__name__
    return {"report": json.dumps(found)}
"""


def _reader(*paths: str) -> str:
    return f"PATHS = {list(paths)!r}\n{READER}"


class TestFilesystem:
    def test_system_files_are_not_visible(self, service: Service) -> None:
        report = service.report(_reader("/etc/passwd", "/etc/hostname", "/root/.bashrc"))
        assert all(value.startswith("refused") for value in report.values()), report

    def test_the_data_folders_signing_keys_are_not_readable(self, service: Service) -> None:
        url_key = signing_key(service.data_dir)
        assertion_key = secret_file(service.data_dir / "knowledge-assertion-hs256.key")
        paths = [str(service.data_dir / "knowledge-url-signing.key"),
                 str(service.data_dir / "knowledge-assertion-hs256.key"), str(service.data_dir / "workflows.db")]
        report = service.report(_reader(*paths))
        assert all(value.startswith("refused") for value in report.values()), report
        text = json.dumps(report)
        assert url_key.decode("latin-1") not in text and assertion_key.decode("latin-1") not in text

    def test_the_services_environment_is_neither_inherited_nor_readable(self, service: Service) -> None:
        source = f"""
def main():
    import json, os
    found = {{"env": dict(os.environ), "ppid": os.getppid()}}
    for path in ["/proc/self/environ", "/proc/{os.getpid()}/environ", "/proc/%d/environ" % os.getppid()]:
        try:
            found[path] = open(path, "rb").read().decode("latin-1")
        except Exception as exc:
            found[path] = "refused: " + type(exc).__name__
    return {{"report": json.dumps(found)}}
"""
        report = service.report(source)
        assert "service-environment-secret" not in json.dumps(report)
        assert not any(name.startswith(("RAGSPINE", "AWS")) for name in report["env"])

    def test_writes_stay_inside_the_runs_own_folder_and_vanish(self, service: Service, tmp_path: Path) -> None:
        targets = [str(service.data_dir / "planted.txt"), str(tmp_path / "planted.txt"), "/tmp/ragspine-planted.txt"]
        source = f"""
def main():
    import json
    found = {{}}
    for path in {targets!r} + ["planted-here.txt"]:
        try:
            with open(path, "w") as handle:
                handle.write("planted")
            found[path] = "written"
        except Exception as exc:
            found[path] = "refused: " + type(exc).__name__
    return {{"report": json.dumps(found)}}
"""
        report = service.report(source)
        assert report["planted-here.txt"] == "written"  # its own folder works
        assert all(not Path(target).exists() for target in targets), report
        assert all(report[target].startswith("refused") for target in targets)


class TestNetwork:
    def test_loopback_is_unreachable(self, service: Service) -> None:
        listener = socket.create_server(("127.0.0.1", 0))
        accepted: list[object] = []
        listener.settimeout(3)

        def accept() -> None:
            with contextlib.suppress(OSError):
                accepted.append(listener.accept())

        waiter = threading.Thread(target=accept)
        waiter.start()
        port = listener.getsockname()[1]
        source = f"""
def main():
    import json, socket
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=2).sendall(b"POST / HTTP/1.0\\r\\n\\r\\n")
        outcome = "connected"
    except OSError as exc:
        outcome = "refused: " + type(exc).__name__
    return {{"report": json.dumps({{"outcome": outcome}})}}
"""
        try:
            report = service.report(source)
        finally:
            waiter.join()
            listener.close()
        assert report["outcome"].startswith("refused") and not accepted


class TestProcesses:
    def test_a_setsid_child_does_not_outlive_the_run(self, service: Service) -> None:
        marker = f"ragspine-probe-{uuid.uuid4().hex}"
        source = f"""
def main():
    import json, os, sys
    if os.fork() == 0:
        os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
    return {{"report": json.dumps({{"started": True}})}}
"""
        with killed_after(marker):
            assert service.report(source) == {"started": True}
            time.sleep(0.5)
            assert processes_with(marker) == []

    def test_a_setsid_child_of_a_run_killed_at_its_time_limit_dies_too(self, service: Service) -> None:
        marker = f"ragspine-probe-{uuid.uuid4().hex}"
        source = f"""
def main():
    import os, sys, time
    if os.fork() == 0:
        os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
    time.sleep(60)
"""
        began = time.monotonic()
        with killed_after(marker):
            data = service.run(source)
            assert data["status"] == "failed" and "time limit" in data["error"]
            assert time.monotonic() - began < 15
            time.sleep(0.5)
            assert processes_with(marker) == []

    def test_a_fork_bomb_meets_the_process_limit(self, service: Service) -> None:
        marker = f"ragspine-probe-{uuid.uuid4().hex}"
        source = f"""
def main():
    import json, os, sys
    started = 0
    for _ in range(100):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
        started += 1
    return {{"report": json.dumps({{"started": started}})}}
"""
        with killed_after(marker):
            report = service.report(source)
            assert report["started"] < CodeLimits().max_processes
            time.sleep(0.5)
            assert processes_with(marker) == []


class TestFailsClosed:
    def test_ordinary_code_still_runs(self, service: Service) -> None:
        source = ("def main():\n    import json, math, os, random, tempfile\n"
                  "    open('/dev/null', 'w').write('x')\n"
                  "    with open('scratch.txt', 'w') as handle:\n        handle.write('kept for the run')\n"
                  "    return {'report': json.dumps({'v': math.sqrt(16), 'r': len(os.urandom(4)),\n"
                  "                                  'cwd': os.getcwd(), 'ls': os.listdir('.')})}")
        assert service.report(source) == {"v": 4.0, "r": 4, "cwd": "/work", "ls": ["scratch.txt"]}

    def test_a_jail_that_would_expose_a_protected_folder_refuses_to_run(self) -> None:
        exposed = str(Path(sys.base_prefix).resolve() / "lib")
        with pytest.raises(WorkflowCodeIsolationError) as caught:
            execute_python("def main():\n    return {}", {}, CodeLimits(protected=(exposed,)))
        assert caught.value.code == "WORKFLOW_CODE_ISOLATION_UNAVAILABLE" and exposed in caught.value.message

    def test_a_jail_that_cannot_be_built_refuses_to_run_with_its_code(self, service: Service) -> None:
        # A work area the kernel refuses to mount stands for a host that cannot build the jail.
        limits = replace(CodeLimits(protected=(str(service.data_dir),)), work_bytes=-1)
        with pytest.raises(WorkflowCodeIsolationError) as caught:
            execute_python("def main():\n    return {}", {}, limits)
        assert caught.value.http_status == 503 and "was not run" in caught.value.message


def _forging(reply: str, status: int = 0) -> str:
    """Code that writes ``reply`` on every file descriptor it holds (its runner's reply among them), then exits."""
    return (f"def main():\n    import os\n    for fd in range(1, 32):\n        try:\n"
            f"            os.write(fd, {reply!r}.encode())\n        except OSError:\n            pass\n"
            f"    os._exit({status})\n")


class TestTheReplyIsTheCodesWordOnly:
    @pytest.mark.parametrize("forged", ['{"ok": true}', '{"ok": true, "result": "report"}',
                                        '{"ok": true, "result": null}', '[' * 50_000])
    def test_a_reply_the_code_forges_is_the_codes_failure_not_a_fault_of_the_service(
            self, service: Service, forged: str) -> None:
        run = service.run(_forging(forged))
        assert run["status"] == "failed"
        assert NOT_A_RESULT in run["error"] and "fault in the service" not in run["error"], run["error"]

    def test_the_code_cannot_make_the_service_report_its_jail_missing(self, service: Service) -> None:
        run = service.run(_forging('{"ok": false, "isolation_error": "forged by the code"}', 71))
        assert run["status"] == "failed"
        assert "isolation" not in run["error"] and "forged" not in run["error"], run["error"]
        assert "exit status 71" in run["error"]

    @pytest.mark.parametrize("sent", ["SIGXCPU", "SIGKILL", "SIGSEGV"])
    def test_a_code_that_signals_itself_at_once_is_not_reported_over_its_cpu_limit(self, service: Service,
                                                                                   sent: str) -> None:
        # The CPU limit is the kernel's SIGXCPU (or SIGKILL) after the run used its CPU time; this code used none.
        run = service.run(f"import os, signal\n\ndef main():\n    os.kill(os.getpid(), signal.{sent})\n"
                          "    return {'report': 'never'}")
        assert run["status"] == "failed"
        assert "CPU time limit" not in run["error"] and f"signal {sent}" in run["error"], run["error"]

    def test_what_the_codes_own_processes_print_does_not_corrupt_the_reply(self, service: Service) -> None:
        source = ("def main():\n    import subprocess, sys\n"
                  "    subprocess.run([sys.executable, '-c', 'print(\"noise\")'], check=True)\n"
                  "    return {'report': '{\"clean\": true}'}")
        assert service.report(source) == {"clean": True}


ROOTLESS_PROBE = """
def main():
    import ctypes, os, socket
    found = {"uid": os.getuid()}
    for path in ["/etc/passwd", "/root/.bashrc", "/proc/1/environ"]:
        try:
            open(path).read(10)
            found[path] = "read"
        except OSError as exc:
            found[path] = "refused: " + type(exc).__name__
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=1)
        found["net"] = "connected"
    except OSError as exc:
        found["net"] = "refused: " + type(exc).__name__
    started = 0
    for _ in range(60):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            import time
            time.sleep(30)
            os._exit(0)
        started += 1
    found["forks"] = started
    found["mount"] = ctypes.CDLL(None, use_errno=True).mount(b"x", b"/work", b"tmpfs", 0, None)
    return found
"""


def _system_python() -> str | None:
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if Path(candidate).exists():
            return str(Path(candidate).resolve())
    return None


class TestRootless:
    def test_a_non_root_service_builds_the_same_jail_in_a_user_namespace(self) -> None:
        import shutil
        import subprocess
        import tempfile

        from ragspine.workflows.run.code_jail import JAIL, jail_plan

        python, setpriv, unshare = _system_python(), shutil.which("setpriv"), shutil.which("unshare")
        if python is None or setpriv is None or unshare is None:
            pytest.skip("needs a system python3, setpriv and unshare to run the jail as another user")
        as_nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        if subprocess.run([*as_nobody, unshare, "--user", "--mount", "--net", "--pid", "--fork", "true"],  # noqa: S603
                          capture_output=True, check=False).returncode != 0:
            pytest.skip("this host forbids unprivileged user namespaces")
        with tempfile.TemporaryDirectory(prefix="ragspine-rootless-") as root:  # in /tmp: reachable by any user
            Path(root).chmod(0o755)
            plan = jail_plan(root=root, python=python, limits=CodeLimits().rlimits(), work_bytes=8 << 20,
                             protected=())
            plan["binds"] = [b for b in plan["binds"] if not b.startswith("/root")]  # not the test's interpreter
            read_end, write_end = os.pipe()
            try:
                done = subprocess.run(  # noqa: S603 - fixed argv
                    [*as_nobody, python, "-I", "-S", str(JAIL), json.dumps(plan), str(write_end)],
                    input=json.dumps({"code": ROOTLESS_PROBE, "inputs": {}}).encode(), capture_output=True, env={},
                    timeout=60, check=False, pass_fds=(write_end,))
            finally:
                os.close(write_end)
            with os.fdopen(read_end, "rb") as status:
                assert status.read() == b"", "the jail could not be built"
        reply = json.loads(done.stdout)
        assert reply.get("ok"), reply
        found = reply["result"]
        assert found["uid"] == plan["uid"] and found["net"].startswith("refused")
        assert all(found[p].startswith("refused") for p in ("/etc/passwd", "/root/.bashrc", "/proc/1/environ"))
        assert found["forks"] < CodeLimits().max_processes and found["mount"] == -1
