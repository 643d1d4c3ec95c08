"""A real local service with the sample corpus, and Debian's chromium driven by Playwright.

The services run ``ragspine serve --samples`` on free loopback ports, one per sample domain
(ACME: xlsx and pptx figures; Vela: a PDF letter). Playwright never downloads a browser here:
it launches /usr/bin/chromium. Without chromium the tests skip locally and fail in CI
(``CI=true``), where ``make test`` installs it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = os.environ.get("RAGSPINE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).parent / "artifacts"
REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 240


def _missing_browser() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium fonts-noto-cjk)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing_browser()
    if reason is None:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"browser tests cannot run in CI: {reason}")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Service:
    """One ``ragspine serve --samples`` process on a loopback port."""

    name: str
    process: subprocess.Popen[bytes]
    url: str
    log: Path
    data_dir: Path
    ready: bool = field(default=False)

    def wait(self) -> Service:
        """Block until the service answers its health route (ingestion of the samples comes first)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.ready:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} service exited: {self.log.read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                self.ready = httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} service did not start in {START_TIMEOUT_S}s: "
                                   f"{self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.5)
        return self


def _start(name: str, tmp: Path, domain_dir: Path | None, settings: dict[str, str] | None = None) -> Service:
    """``ragspine serve --samples`` with a data dir of its own; ``settings`` adds RAGSPINE_* variables."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGSPINE_")}
    env.update(RAGSPINE_DATA_DIR=str(tmp / name), RAGSPINE_TODAY="2026-11-30", **(settings or {}))
    if domain_dir is not None:
        env["RAGSPINE_DOMAIN_DIR"] = str(domain_dir)
    log = tmp / f"{name}.log"
    process = subprocess.Popen([sys.executable, "-m", "ragspine", "serve", "--samples", "--host", "127.0.0.1",
                                "--port", str(port)], env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    return Service(name, process, f"http://127.0.0.1:{port}", log, tmp / name)


@pytest.fixture(scope="session")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Service]]:
    """Both sample services, started together (their ingestion overlaps)."""
    tmp = tmp_path_factory.mktemp("page-services")
    import ragspine

    vela = Path(ragspine.__file__).parent / "shipped_domains" / "vela"
    started = {"acme": _start("acme", tmp, None), "vela": _start("vela", tmp, vela)}
    yield started
    for service in started.values():
        service.process.terminate()
        try:
            service.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            service.process.kill()


@pytest.fixture(scope="session")
def acme(services: dict[str, Service]) -> Service:
    return services["acme"].wait()


@pytest.fixture(scope="session")
def vela(services: dict[str, Service]) -> Service:
    return services["vela"].wait()


# Package scope, not session: Playwright's sync API keeps an asyncio loop running on the main
# thread while it lives, and every later test that runs a loop (Mangum, asyncio.run) would fail.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@dataclass
class PageUnderTest:
    """A browser page with every console error and uncaught exception it produced."""

    page: Any
    errors: list[str]

    def shot(self, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(service, locale=..., width=...)``: a fresh context (empty storage) on the ask page."""
    contexts: list[Any] = []
    pages: list[PageUnderTest] = []

    def opener(service: Service, *, locale: str = "en", width: int = 1280, height: int = 900) -> PageUnderTest:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service.url)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(service.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        wrapped = PageUnderTest(page, errors)
        pages.append(wrapped)
        return wrapped

    yield opener
    for wrapped in pages:
        assert wrapped.errors == [], f"console errors: {wrapped.errors}"
    for context in contexts:
        context.close()

