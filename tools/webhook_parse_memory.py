"""Peak memory of a local server parsing four large, deeply nested webhook bodies sent at once.

Starts ``ragspine serve`` on a fresh data folder (both run gates on) with one active webhook,
sends ``--bodies`` JSON bodies of ``--mib`` MiB each in parallel (arrays nested 30 deep, the
shape whose parsed value is largest for its bytes: about 50x), and prints the server's peak
resident memory (VmHWM) over its resident memory before, with each call's status. The slot
shares are lifted and the deadline long, so every body reaches its parse. Run it once
with the default parse budget and once with ``--budget-mib 1024`` (every body parsed at once,
as before the budget) to compare::

    python -m tools.webhook_parse_memory
    python -m tools.webhook_parse_memory --budget-mib 1024
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tools.local_service import local_service

MIB = 1024 * 1024
WORKFLOW = {
    "name": "parse-memory", "settings": {},
    "nodes": [
        {"id": "start", "name": "Start", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
         "parameters": {"httpMethod": "POST", "path": "memory", "responseMode": "responseNode", "options": {}}},
        {"id": "end", "name": "End", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1,
         "position": [0, 0], "parameters": {"respondWith": "json", "responseBody": '={{ { "ok": 1 } }}',
                                            "options": {}}},
    ],
    "connections": {"Start": {"main": [[{"node": "End", "type": "main", "index": 0}]]}},
}


def nested_body(size: int) -> bytes:
    """A JSON object of about ``size`` bytes: one array of arrays nested 30 deep."""
    unit = b"[" * 30 + b"0" + b"]" * 30
    return b'{"a":[' + b",".join([unit] * (size // (len(unit) + 1))) + b"]}"


def _memory_mb(pid: int, field: str) -> int:
    """``VmRSS`` or ``VmHWM`` (peak) of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    raise KeyError(field)


def measure(mib: int, bodies: int, budget_mib: int | None) -> str:
    """Start a server, send the bodies at once, and describe its memory and the answers."""
    with tempfile.TemporaryDirectory() as data:
        # The deadline leaves every body time to wait its turn, and the slot shares let one path take every
        # slot: the bodies all reach their parse, and only the parse budget tells them apart.
        env = dict(os.environ, RAGSPINE_DATA_DIR=data, RAGSPINE_DIFY_RUN_ENABLED="true",
                   RAGSPINE_WORKFLOW_WEBHOOK_BODY_TIMEOUT_S="300", RAGSPINE_WORKFLOW_WEBHOOK_BODY_SHARE_PER_PATH="1",
                   RAGSPINE_WORKFLOW_WEBHOOK_BODY_SHARE_PER_CLIENT="1")
        if budget_mib is not None:
            env["RAGSPINE_WORKFLOW_WEBHOOK_PARSE_BUDGET_BYTES"] = str(budget_mib * MIB)
        with local_service(env) as service:
            base, key = service.base, service.n8n_key
            made = httpx.post(base + "/api/v1/workflows", headers=key, json=WORKFLOW).json()
            httpx.post(base + f"/api/v1/workflows/{made['id']}/activate", headers=key).raise_for_status()
            body = nested_body(mib * MIB)
            before = _memory_mb(service.pid, "VmRSS")

            def send(_: int) -> int:
                return httpx.post(base + "/webhook/memory", content=body, timeout=600,
                                  headers={"Content-Type": "application/json"}).status_code

            with ThreadPoolExecutor(bodies) as pool:
                statuses = Counter(pool.map(send, range(bodies)))
            peak = _memory_mb(service.pid, "VmHWM")
    budget = "default" if budget_mib is None else f"{budget_mib} MiB"
    return (f"{bodies} x {mib} MiB nested bodies, parse budget {budget}: server RSS {before} MB -> peak {peak} MB "
            f"(+{peak - before} MB); statuses {json.dumps(dict(sorted(statuses.items())))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mib", type=int, default=16, help="size of each body (MiB)")
    parser.add_argument("--bodies", type=int, default=4, help="bodies sent at once")
    parser.add_argument("--budget-mib", type=int, default=None, help="RAGSPINE_WORKFLOW_WEBHOOK_PARSE_BUDGET_BYTES "
                                                                     "in MiB (default: the setting's default)")
    args = parser.parse_args()
    print(measure(args.mib, args.bodies, args.budget_mib))


if __name__ == "__main__":
    main()
