"""A small client that hides HTTP from the e2e test bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx


@dataclass(frozen=True)
class Reply:
    """Status, JSON body and headers of one response."""

    status: int
    body: Any
    headers: httpx.Headers

    @property
    def error_code(self) -> str | None:
        """The seed-003 error code, when the reply is an error envelope."""
        meta = self.body.get("meta") if isinstance(self.body, dict) else None
        return (meta or {}).get("error", {}).get("code") if meta else None


class ApiClient:
    """Calls the local service's routes."""

    def __init__(self, base_url: str) -> None:
        self._http = httpx.Client(base_url=base_url, timeout=10)

    def _reply(self, response: httpx.Response) -> Reply:
        try:
            body = response.json()
        except ValueError:
            body = response.text
        return Reply(response.status_code, body, response.headers)

    def ask(self, question: Any) -> Reply:
        """POST /v1/ask with a JSON body ``{"question": question}``."""
        return self._reply(self._http.post("/v1/ask", json={"question": question}))

    def post_raw(self, path: str, content: bytes, content_type: str = "application/json") -> Reply:
        """POST arbitrary bytes (for malformed-input tests)."""
        return self._reply(self._http.post(path, content=content, headers={"Content-Type": content_type}))

    def post_chunked(self, path: str, content: bytes, chunk: int = 4096) -> Reply:
        """POST bytes with Transfer-Encoding: chunked (no Content-Length), as a streaming client does."""
        parts = (content[i:i + chunk] for i in range(0, len(content), chunk))
        return self._reply(self._http.post(path, content=parts, headers={"Content-Type": "application/json"}))

    def get(self, path: str) -> Reply:
        """GET a path."""
        return self._reply(self._http.get(path))

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()
