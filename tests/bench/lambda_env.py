"""The environment the cold-start benchmarks give their fresh interpreters: the ask function's in Lambda."""

from __future__ import annotations

import os

TARGET_RATIO = 1.15
# Configured as the ask function is in Lambda (template.yaml Globals and its environment).
LAMBDA_ENV = {
    # Set by Lambda: the Powertools Tracer is on, and the X-Ray SDK samples locally (it creates no X-Ray
    # API clients, which it does outside Lambda for centralized sampling).
    "LAMBDA_TASK_ROOT": "/var/task",
    "RAGSPINE_BACKEND": "aws",
    "RAGSPINE_FACTS_TABLE": "bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_SERVICE_NAME": "ragspine",
}


def child_env() -> dict[str, str]:
    """This environment plus the Lambda settings; byte-code writing on so warm-ups leave .pyc files."""
    env = dict(os.environ)
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "PYTHONSTARTUP"):
        env.pop(name, None)
    env.update(LAMBDA_ENV)
    return env
