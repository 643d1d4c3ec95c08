"""A ``ragspine serve`` of this checkout on a free loopback port, with an n8n key, for the measurement tools."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

RAGSPINE = str(Path(sys.executable).parent / "ragspine")
START_TIMEOUT_S = 180  # a cold start of the embedder on a loaded machine


@dataclass(frozen=True)
class LocalService:
    base: str
    port: int
    pid: int
    n8n_key: dict[str, str]  # the header that authenticates the n8n API


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def local_service(env: dict[str, str]) -> Iterator[LocalService]:
    """Serve with ``env`` (its own process group, stopped on exit) once ``/healthz`` answers."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([RAGSPINE, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.5)
        out = subprocess.run([RAGSPINE, "workflow", "keys", "create", "--n8n"], env=env, capture_output=True,
                             text=True, check=True).stdout
        yield LocalService(base, port, proc.pid, {"X-N8N-API-KEY": out.strip().splitlines()[-1].split()[-1]})
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(30)
