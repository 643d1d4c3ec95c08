"""On AWS, code nodes run in the code-runner Lambda function: the handler itself, and the adapter invoking it."""

from __future__ import annotations

import sys
import time
import uuid
from typing import Any

import pytest

from ragspine.aws.lambda_code_runner import LambdaCodeRunner
from ragspine.bootstrap import build_workflow_components
from ragspine.settings import Settings, load_settings
from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowCodeIsolationError, WorkflowNodeBusyError
from ragspine.workflows.run import NOT_A_RESULT
from ragspine.workflows.run.code_node import CodeLimits
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.run.execute import RunStatus, WorkflowExecutor
from tests.support.code_runner_lambda import (
    invoke_handler,
    lambda_endpoint,
    lambda_endpoint_answering,
    throttling_lambda_endpoint,
)
from tests.support.leftover_processes import killed_after, processes_with
from tests.support.loopback import free_port
from tests.unit.workflows.samples import code, dsl, edge, end, start

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the runner's clean-up reads /proc")


class TestHandler:
    def test_it_answers_the_result_of_main(self) -> None:
        reply = invoke_handler({"code": "def main(x):\n    return {'y': x * 2}", "inputs": {"x": 21}})
        assert reply == {"ok": True, "result": {"y": 42}}

    def test_a_failing_code_is_an_error_reply_not_a_crash(self) -> None:
        reply = invoke_handler({"code": "def main():\n    raise ValueError('nope')", "inputs": {}})
        assert reply["ok"] is False and reply["code"] == "WORKFLOW_NODE_FAILED" and "nope" in reply["error"]

    def test_the_code_sees_no_environment(self) -> None:
        source = "def main():\n    import os\n    return {'env': sorted(os.environ)}"
        reply = invoke_handler({"code": source, "inputs": {}})
        assert not any(name.startswith(("AWS", "RAGSPINE")) for name in reply["result"]["env"])

    def test_what_the_code_leaves_running_is_killed_after_the_run(self) -> None:
        marker = f"ragspine-probe-{uuid.uuid4().hex}"
        source = f"""
def main():
    import os, sys
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
        os._exit(0)
    return {{"started": True}}
"""
        with killed_after(marker):
            # The detached child holds the reply pipe open, so the run ends at its time limit; then it is killed.
            reply = invoke_handler({"code": source, "inputs": {}, "limits": {"timeout_seconds": 2}})
            assert reply["ok"] is True or "time limit" in reply["error"]
            time.sleep(0.3)
            assert processes_with(marker) == []

    def test_a_reply_the_code_forges_is_the_codes_failure_not_a_crash(self) -> None:
        # The code writes a reply of its own on every descriptor it holds (its runner's among them) and exits.
        source = ("def main():\n    import os\n    for fd in range(1, 32):\n        try:\n"
                  "            os.write(fd, b'{\"ok\": true}')\n        except OSError:\n            pass\n"
                  "    os._exit(0)\n")
        reply = invoke_handler({"code": source, "inputs": {}})
        assert reply == {"ok": False, "error": NOT_A_RESULT, "code": "WORKFLOW_NODE_FAILED"}

    def test_the_limits_asked_for_are_applied(self) -> None:
        reply = invoke_handler({"code": "def main():\n    while True:\n        pass", "inputs": {},
                                "limits": {"timeout_seconds": 1}})
        assert reply["ok"] is False and "1 s time limit" in reply["error"]


@pytest.fixture
def fake_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)


def _code_plan(source: str) -> Any:
    doc = dsl([start("x"), code("c", source, {"y": "number"}, x=["start", "x"]), end(("y", ["c", "y"]))],
              [edge("start", "c"), edge("c", "end")])
    return compile_plan(read_dsl(doc))


@pytest.mark.usefixtures("fake_aws")
class TestAdapter:
    def test_a_code_node_runs_in_the_runner_function(self) -> None:
        with lambda_endpoint() as url:
            runner = LambdaCodeRunner("ragspine-code-runner", region="us-east-1", endpoint_url=url)
            executor = WorkflowExecutor(code=CodeLimits(remote=runner))
            result = executor.run(_code_plan("def main(x):\n    return {'y': float(x) * 2}"), {"x": "21"})
        assert result.status is RunStatus.SUCCEEDED and result.outputs == {"y": 42.0}

    def test_the_codes_failure_fails_the_node(self) -> None:
        with lambda_endpoint() as url:
            runner = LambdaCodeRunner("ragspine-code-runner", region="us-east-1", endpoint_url=url)
            result = WorkflowExecutor(code=CodeLimits(remote=runner)).run(
                _code_plan("def main(x):\n    return {'y': 1 / 0}"), {"x": "1"})
        assert result.status is RunStatus.FAILED and "ZeroDivisionError" in (result.error or "")

    @pytest.mark.parametrize("payload", [b'{"ok": true}', b'{"ok": true, "result": "y"}', b"[1]", b"not json"])
    def test_an_answer_of_another_shape_fails_the_node_not_the_service(self, payload: bytes) -> None:
        with lambda_endpoint_answering(payload) as url:
            runner = LambdaCodeRunner("ragspine-code-runner", region="us-east-1", endpoint_url=url)
            result = WorkflowExecutor(code=CodeLimits(remote=runner)).run(
                _code_plan("def main(x):\n    return {'y': 1}"), {"x": "1"})
        assert result.status is RunStatus.FAILED and NOT_A_RESULT in (result.error or ""), result.error

    def test_an_unreachable_runner_refuses_the_run_without_running_the_code_here(self) -> None:
        runner = LambdaCodeRunner("ragspine-code-runner", region="us-east-1",
                                  endpoint_url=f"http://127.0.0.1:{free_port()}")
        result = WorkflowExecutor(code=CodeLimits(remote=runner)).run(
            _code_plan("def main(x):\n    return {'y': 1}"), {"x": "1"})
        assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_CODE_ISOLATION_UNAVAILABLE"
        with pytest.raises(WorkflowCodeIsolationError):
            runner.run("def main():\n    return {}", {}, CodeLimits())

    def test_a_runner_throttled_past_its_reservation_fails_the_node_as_busy_without_running_the_code_here(
            self) -> None:
        calls: list[dict[str, Any]] = []
        with throttling_lambda_endpoint(calls) as url:
            runner = LambdaCodeRunner("ragspine-code-runner", region="us-east-1", endpoint_url=url)
            result = WorkflowExecutor(code=CodeLimits(remote=runner)).run(
                _code_plan("def main(x):\n    return {'y': 1}"), {"x": "1"})
            with pytest.raises(WorkflowNodeBusyError, match="concurrency"):
                runner.run("def main():\n    return {}", {}, CodeLimits())
        assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_NODE_BUSY"
        assert "retry" in (result.error or "") and "y" not in result.outputs
        assert calls and calls[0]["code"].startswith("def main(x)")  # it reached the runner, which refused it

    def test_the_aws_composition_root_sends_code_to_the_configured_function(self, settings: Settings) -> None:
        tuned = load_settings(backend="aws", facts_table="f", workflows_table="w", workflow_code_enabled=True,
                              workflow_code_runner_function="ragspine-code-runner", aws_region="us-east-1")
        limits = build_workflow_components(tuned, llm=None).code
        assert limits is not None and isinstance(limits.remote, LambdaCodeRunner)
        assert limits.remote.function_name == "ragspine-code-runner"
