"""What an honest webhook caller gets while slowloris senders on several addresses and paths hold the body slots.

Starts ``ragspine serve`` on a fresh data folder (run gate on, default slots and shares) with
active webhooks, then for ``--seconds``:

- four senders, from 127.0.0.2 to 127.0.0.5, each on its own path, announce a 64 KiB body, send
  its first byte and nothing more; when answered (408 when cut off, 429 or 503 when refused) each
  reconnects after a tenth of a second, so together they try to hold every slot all the time;
- one paced sender from 127.0.0.6 uploads 16 KiB bodies at ``--paced-rate`` bytes a second
  (four times the default minimum rate): slow, but a reader the server must keep;
- an honest caller from 127.0.0.1 posts a small JSON body to another path every half second.

The paths' token buckets are raised (6,000 a minute) so that no charge slows the senders down: the
worst case, a sender with paths enough to spread its charges over. It prints each party's
statuses, once with the minimum rate off (no slot is ever taken from a slow reader: the baseline)
and once at the default, in the same run::

    python -m tools.webhook_slowloris
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import tempfile
import threading
import time
from collections import Counter

import httpx

from tools.local_service import local_service

TRICKLE_PATHS = ("sa", "sb", "sc", "sd")
PACED_PATH, HONEST_PATH = "paced", "honest"


def _workflow(path: str) -> dict[str, object]:
    return {"name": f"hook {path}", "settings": {}, "nodes": [
        {"id": "start", "name": "Start", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
         "parameters": {"httpMethod": "POST", "path": path, "responseMode": "responseNode", "options": {}}},
        {"id": "end", "name": "End", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1,
         "position": [0, 0], "parameters": {"respondWith": "json", "responseBody": '={{ { "ok": 1 } }}',
                                            "options": {}}}],
        "connections": {"Start": {"main": [[{"node": "End", "type": "main", "index": 0}]]}}}


def _status(sock: socket.socket) -> str:
    """The status the server answered on ``sock`` with, or why there was none."""
    try:
        reply = sock.recv(64)
    except TimeoutError:
        return "no answer"
    except ConnectionError:
        return "reset"
    return reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/") else "closed"


def _head(path: str, length: int) -> bytes:
    return (f"POST /webhook/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def _trickle(port: int, source: str, path: str, stop: threading.Event, seen: Counter[str]) -> None:
    while not stop.is_set():
        with socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(source, 0)) as sock:
            sock.sendall(_head(path, 64 * 1024) + b"{")
            seen[_status(sock)] += 1
        stop.wait(0.1)


def _paced(port: int, rate: int, stop: threading.Event, seen: Counter[str]) -> None:
    body = json.dumps({"text": "y" * (16 * 1024 - 12)}).encode()
    while not stop.is_set():
        with socket.create_connection(("127.0.0.1", port), timeout=60, source_address=("127.0.0.6", 0)) as sock:
            sock.sendall(_head(PACED_PATH, len(body)))
            for start in range(0, len(body), rate // 10):  # a tenth of a second's worth at a time
                sock.sendall(body[start:start + rate // 10])
                time.sleep(0.1)
            seen[_status(sock)] += 1


def measure(seconds: float, min_rate: float | None, paced_rate: int) -> str:
    """Start a server, run the senders and the honest caller for ``seconds``, and describe what each got."""
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, RAGSPINE_DATA_DIR=data, RAGSPINE_DIFY_RUN_ENABLED="true",
                   RAGSPINE_WORKFLOW_WEBHOOK_RATE_PER_MINUTE="6000", RAGSPINE_WORKFLOW_WEBHOOK_BURST="1000")
        if min_rate is not None:
            env["RAGSPINE_WORKFLOW_WEBHOOK_BODY_MIN_RATE"] = str(min_rate)
        with local_service(env) as service:
            base, port, key = service.base, service.port, service.n8n_key
            for path in (*TRICKLE_PATHS, PACED_PATH, HONEST_PATH):
                made = httpx.post(base + "/api/v1/workflows", headers=key, json=_workflow(path)).json()
                httpx.post(base + f"/api/v1/workflows/{made['id']}/activate", headers=key).raise_for_status()
            stop = threading.Event()
            trickled: Counter[str] = Counter()
            paced: Counter[str] = Counter()
            honest: Counter[str] = Counter()
            senders = [threading.Thread(target=_trickle, args=(port, f"127.0.0.{2 + i}", path, stop, trickled))
                       for i, path in enumerate(TRICKLE_PATHS)]
            senders.append(threading.Thread(target=_paced, args=(port, paced_rate, stop, paced)))
            for sender in senders:
                sender.start()
            time.sleep(2)  # the senders hold the slots before the honest caller starts
            ends = time.monotonic() + seconds
            while time.monotonic() < ends:
                honest[str(httpx.post(base + f"/webhook/{HONEST_PATH}", json={"a": 1}, timeout=60).status_code)] += 1
                time.sleep(0.5)
            stop.set()
            for sender in senders:
                sender.join(120)
    setting = "default" if min_rate is None else f"{min_rate:g}"
    return (f"min rate {setting}: honest {dict(sorted(honest.items()))}, trickling senders "
            f"{dict(sorted(trickled.items()))}, paced sender at {paced_rate} B/s {dict(sorted(paced.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the honest caller calls")
    parser.add_argument("--paced-rate", type=int, default=2000, help="the paced sender's bytes a second")
    args = parser.parse_args()
    print(measure(args.seconds, 0, args.paced_rate))  # baseline: no reader is ever too slow
    print(measure(args.seconds, None, args.paced_rate))


if __name__ == "__main__":
    main()
