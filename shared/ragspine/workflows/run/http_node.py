"""The http-request node: Dify's request fields sent with httpx under the egress policy.

The URL's host must pass :func:`check_egress` (allowlist, then only public addresses after DNS
resolution). The request goes to the checked address with the original ``Host`` header and
TLS server name, so a second DNS answer cannot redirect it; redirects are not followed, and
timeouts and the response size are capped.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.egress import EgressTarget, Resolver, check_egress, system_resolver
from ragspine.workflows.shapes import as_map

if TYPE_CHECKING:
    from ragspine.workflows.run.nodes import NodeCall

METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"})


@dataclass(frozen=True, slots=True)
class HttpPolicy:
    """Egress settings: allowed hosts, timeouts (seconds), response cap; ``transport`` is for tests."""

    allowlist: tuple[str, ...] = ()
    connect_timeout: float = 5.0
    read_timeout: float = 15.0
    max_response_bytes: int = 1024 * 1024
    resolver: Resolver = system_resolver
    transport: Any = field(default=None, compare=False)


def _pairs(text: Any, render: Any) -> list[tuple[str, str]]:
    """Dify's ``key:value`` lines (headers, params) with references rendered."""
    pairs: list[tuple[str, str]] = []
    for line in str(text or "").splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            if key.strip():
                pairs.append((render(key.strip()), render(value.strip())))
    return pairs


def body_text(data: Any) -> str:
    """Raw body text from either body format: a string (0.1.x) or ``[{type, key, value}]`` items."""
    if isinstance(data, list):
        return "".join(str(item.get("value", "")) for item in data if isinstance(item, Mapping))
    return "" if data is None else str(data)


def _body(call: NodeCall, body: Mapping[str, Any]) -> dict[str, Any]:
    kind, data, render = body.get("type", "none"), body.get("data"), call.pool.render
    if kind in (None, "none"):
        return {}
    if kind in ("x-www-form-urlencoded", "form-data"):
        if isinstance(data, list):
            pairs = [(render(str(i.get("key", ""))), render(str(i.get("value", "")))) for i in data
                     if isinstance(i, Mapping) and i.get("key")]
        else:
            pairs = _pairs(data, render)
        return {"data": dict(pairs)}
    if kind in ("json", "raw-text"):
        content_type = "application/json" if kind == "json" else "text/plain"
        return {"content": render(body_text(data)).encode("utf-8"), "headers": {"content-type": content_type}}
    raise WorkflowNodeFailedError(f"http-request body type {kind!r} is not supported", node_id=call.step.node_id)


def _auth_headers(auth: Any) -> dict[str, str]:
    if not isinstance(auth, Mapping) or auth.get("type") in (None, "no-auth"):
        return {}
    config = as_map(auth.get("config"))
    key, kind = str(config.get("api_key", "")), config.get("type", "bearer")
    if kind == "custom":
        return {str(config.get("header") or "Authorization"): key}
    return {"Authorization": f"Basic {key}" if kind == "basic" else f"Bearer {key}"}


def _pinned_url(target: EgressTarget) -> str:
    parts = urlsplit(target.url)
    address = ipaddress.ip_address(target.address.split("%")[0])
    host = f"[{address}]" if address.version == 6 else str(address)
    return urlunsplit((parts.scheme, f"{host}:{target.port}", parts.path or "/", parts.query, ""))


def _send(policy: HttpPolicy, request: dict[str, Any], target: EgressTarget) -> dict[str, Any]:
    import httpx

    timeout = httpx.Timeout(policy.read_timeout, connect=policy.connect_timeout)
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    with httpx.Client(timeout=timeout, follow_redirects=False, transport=policy.transport, trust_env=False) as client:
        built = client.build_request(request["method"], _pinned_url(target), params=request["params"],
                                     headers=request["headers"], content=request.get("content"),
                                     data=request.get("data"), extensions=extensions)
        response = client.send(built, stream=True)
        try:
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > policy.max_response_bytes:
                    raise WorkflowNodeFailedError(f"response exceeds {policy.max_response_bytes} bytes")
                chunks.append(chunk)
        finally:
            response.close()
    text = b"".join(chunks).decode(response.encoding or "utf-8", errors="replace")
    return {"body": text, "status_code": response.status_code,
            "headers": {k.lower(): v for k, v in response.headers.items()}, "files": []}


def run_http(call: NodeCall) -> dict[str, Any]:
    """Send the request and return Dify's outputs: body, status_code, headers, files.

    Raises:
        WorkflowEgressDeniedError: the URL fails the egress policy.
        WorkflowNodeFailedError: bad method or body type, timeout, transport error, oversized response.
    """
    import httpx

    data, policy = call.step.config, call.http
    method = str(data.get("method", "get")).upper()
    if method not in METHODS:
        raise WorkflowNodeFailedError(f"http method {method} is not allowed", node_id=call.step.node_id)
    target = check_egress(call.pool.render(str(data.get("url", ""))), allowlist=policy.allowlist,
                          resolver=policy.resolver)
    body = _body(call, as_map(data.get("body")))
    host = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    headers = {"Host": host, **_auth_headers(data.get("authorization")),
               **dict(_pairs(data.get("headers"), call.pool.render)), **body.pop("headers", {})}
    request = {"method": method, "params": _pairs(data.get("params"), call.pool.render), "headers": headers, **body}
    try:
        return _send(policy, request, target)
    except httpx.HTTPError as exc:
        raise WorkflowNodeFailedError(f"http-request failed: {type(exc).__name__}",
                                      node_id=call.step.node_id) from exc
