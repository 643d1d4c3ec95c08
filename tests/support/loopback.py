"""An ASGI app served by a real uvicorn on a free 127.0.0.1 port, in a thread, for as long as a ``with`` block."""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def first_reply(port: int, request: bytes) -> tuple[int, bytes]:
    """Send ``request`` (a head and a first part of its body) and read until the reply's head ends.

    Returns ``(status, what was read)``; status 0 when no reply came within five seconds (the
    server is still reading the body) or what came is not HTTP.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        reply = b""
        try:
            while b"\r\n\r\n" not in reply:
                data = sock.recv(65536)
                if not data:
                    break
                reply += data
        except TimeoutError:
            return 0, reply
    return (int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/") else 0), reply


def read_reply(sock: socket.socket) -> tuple[bytes, bytes]:
    """The head and body the server answers on ``sock`` (the body as long as its Content-Length says)."""
    reply = b""
    while b"\r\n\r\n" not in reply and (data := sock.recv(65536)):
        reply += data
    head, _, body = reply.partition(b"\r\n\r\n")
    length = int(next((line.split(b":", 1)[1] for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), b"0"))
    while len(body) < length and (data := sock.recv(65536)):
        body += data
    return head, body


@contextmanager
def serve(app: Any, *, name: str, log_level: str = "warning") -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:<port>``) once uvicorn accepts connections; stop it afterwards."""
    import uvicorn  # the callers skip when it is not installed

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # start-up deprecations are the server stack's, not the app's
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=10)
