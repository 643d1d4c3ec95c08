"""A real local service (``ragspine serve --samples``) on a free port, shared by the e2e tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.e2e.api_client import ApiClient
from tests.support.loopback import free_port


@dataclass(frozen=True)
class LocalService:
    """The running server: where it listens and what it printed before serving."""

    base_url: str
    banner: str
    data_dir: Path


@pytest.fixture(scope="session")
def local_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalService]:
    data_dir = tmp_path_factory.mktemp("e2e-data")
    port = free_port()
    env = {**os.environ, "RAGSPINE_DATA_DIR": str(data_dir), "RAGSPINE_TODAY": "2026-11-30",
           "RAGSPINE_MAX_QUESTION_CHARS": "200", "PYTHONUNBUFFERED": "1"}
    env.pop("RAGSPINE_BACKEND", None)
    log = data_dir / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "ragspine", "serve", "--samples", "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited early:\n{log.read_text(encoding='utf-8')}")
            try:
                if httpx.get(base_url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not come up:\n{log.read_text(encoding='utf-8')}")
            time.sleep(0.2)
        yield LocalService(base_url, log.read_text(encoding="utf-8"), data_dir)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def api(local_service: LocalService) -> Iterator[ApiClient]:
    client = ApiClient(local_service.base_url)
    yield client
    client.close()
