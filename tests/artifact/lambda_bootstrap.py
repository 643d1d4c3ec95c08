"""The Lambda runtime's loop, for one built function in its own python3.12 process (standard library only).

Run as ``python3.12 -I lambda_bootstrap.py <config json>``: the config names the code folder, the
layers' ``python`` folders and the runtime's own packages (boto3), in Lambda's ``sys.path`` order,
and the handler. Events arrive one JSON line at a time on stdin; each answer goes back as one JSON
line (``{"result": ...}`` or ``{"errorType": ..., "errorMessage": ...}``) on the original stdout,
while anything the function prints or logs goes to stderr.
"""

import importlib
import json
import os
import sys
import time
import uuid


class Context:
    """What Lambda passes as the handler's context."""

    def __init__(self, name: str, deadline_s: float) -> None:
        self.function_name = name
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = 512
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{name}"
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = "artifact"
        self._deadline = time.monotonic() + deadline_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def main() -> None:
    config = json.loads(sys.argv[1])
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the function's prints and Powertools logs must not mix with the answers
    sys.stdout = sys.stderr
    sys.path[:0] = config["paths"]
    module_name, attribute = config["handler"].rsplit(".", 1)
    handler = getattr(importlib.import_module(module_name), attribute)
    for package in config["from_artifact"]:
        location = importlib.import_module(package).__file__ or ""
        if not location.startswith(config["artifact"]):
            raise SystemExit(f"{package} was imported from {location}, not from the build output {config['artifact']}")
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for line in sys.stdin:
        event = json.loads(line)
        try:
            answer = {"result": handler(event, Context(config["name"], config["timeout_s"]))}
        except Exception as exc:  # the Lambda "Unhandled" error contract: its type name and message
            answer = {"errorType": type(exc).__name__, "errorMessage": str(exc)}
        answers.write(json.dumps(answer, default=str) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
