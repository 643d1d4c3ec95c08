"""``/webhook/{path}``: runs the ACTIVE stored workflow whose webhook node listens on that path.

Unauthenticated by design (like n8n production webhooks), so ingress is controlled here:
a method allowlist (405, RAGSPINE_WORKFLOW_WEBHOOK_METHODS), a declared size over the
payload cap (413, RAGSPINE_WORKFLOW_WEBHOOK_MAX_BYTES), the execution gate (403 while
RAGSPINE_DIFY_RUN_ENABLED is off), 404 for unknown or inactive paths, and a per-path token
bucket (429 with Retry-After) -- all from the request line and headers, before a byte of the
body is read. The bucket lives in process memory: each Lambda instance counts on its own, and
the API Gateway stage throttle bounds the total. Only then is the body read, while holding one
of a bounded number of reading slots (``BodySlots``: 503 with Retry-After when all are taken,
429 when the path or the client address already holds its share), capped as it streams (413) and
cut off at its deadline (408, which also charges its path's bucket for the time held; so does hanging
up after holding the slot half the deadline, and so does any read that averaged below the minimum rate
past its grace, however it ended), so the bodies held at once are bounded by slots x cap and no one
path can hold every slot. A call finding no slot takes that of a reader slower than the
minimum rate once past its grace (which is answered 408 and charged the time it held), so senders trickling on
many addresses and paths cannot keep an honest caller out. A body over
256 KiB also holds its bytes of a parse budget from its parse to its run's end (``ParseBudget``,
waiting its turn up to the deadline, then 503, in a place shared per path and client as the slots are;
a waiter whose sender hangs up leaves and is not run), since its parsed value can be ~50x its bytes. Only a
request that passed all of these may take a run's place: runs in flight are bounded per path
and per process (``RunCapacity``: 429 or 503 with Retry-After, refused at once) and execute on
the workflow threads, not the server's worker threads.
Inputs are the query parameters overlaid by the JSON object body; the answer is the run's
outputs (500 with the node's error when the run fails).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AsyncExitStack

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from starlette.convertors import PathConvertor, register_url_convertor
from starlette.requests import ClientDisconnect
from starlette.types import Message

from ragspine.api.error_formats import WebhookRoute
from ragspine.api.peer_schemas import WEBHOOK_RESPONSES
from ragspine.api.workflow_deps import WorkflowsDep
from ragspine.errors import PayloadTooLargeError
from ragspine.settings import WEBHOOK_METHODS
from ragspine.workflows.errors import WebhookBodyTimeoutError, WebhookBodyTooSlowError
from ragspine.workflows.run import RunResult, RunStatus
from ragspine.workflows.surfaces import (
    BODY_METHODS,
    AdmittedWebhook,
    SenderGone,
    SlotReader,
    WebhookCall,
    WorkflowComponents,
    admit_webhook,
    check_method,
    complete_webhook,
    run_webhook,
)

# A read that ended without its whole body (the sender hung up) after holding its slot for at least this share
# of the body deadline is charged like a 408 for the time held; a sender that gives up sooner is not charged.
HANG_UP_CHARGED_AFTER = 0.5
router = APIRouter(tags=["webhook"], route_class=WebhookRoute, responses=WEBHOOK_RESPONSES)


class _AnyPath(PathConvertor):
    """Starlette's ``path`` without its blind spot: ``.`` skips a line break, so ``/webhook/a%0Ab`` matched no
    route and got the app's envelope instead of the webhook's 404."""

    regex = r"[\s\S]*"


register_url_convertor("webhook_path", _AnyPath())


async def read_capped(request: Request, limit: int, *, timeout_s: float, reader: SlotReader | None = None) -> bytes:
    """The request body, refused as soon as it grows past ``limit`` bytes or takes longer than ``timeout_s``.

    ``reader`` (the slot the body is read under) counts the bytes received, so that a waiting caller may take a
    slow reader's slot: the read then ends at once.

    Raises:
        PayloadTooLargeError: Content-Length or the bytes received exceed ``limit`` (413).
        WebhookBodyTimeoutError: the body has not arrived in full within ``timeout_s`` seconds (408).
        WebhookBodyTooSlowError: a waiting caller took the slot of this slow read (408).
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise PayloadTooLargeError(f"the webhook payload has {declared} bytes; the limit is {limit}")
    received = bytearray()
    try:
        async with asyncio.timeout(timeout_s) as deadline:  # a sender trickling its body would hold a slot forever
            if reader is not None:
                reader.on_preempt(_cut_off(reader, deadline, asyncio.get_running_loop()))
            try:
                async for chunk in request.stream():
                    received.extend(chunk)
                    if reader is not None:
                        reader.received = len(received)
                    if len(received) > limit:
                        raise PayloadTooLargeError(f"the webhook payload exceeds {limit} bytes")
            except (ClientDisconnect, asyncio.CancelledError):  # hung up, or cut off at the deadline
                if reader is not None:
                    reader.cut_short = True
                raise
            finally:
                if reader is not None:
                    reader.done = True
    except TimeoutError:
        if reader is None or not reader.preempted:
            raise WebhookBodyTimeoutError(f"the webhook body did not arrive within {timeout_s:g} s "
                                          f"({len(received):,} bytes received); send it at once") from None
    if reader is not None and reader.preempted:  # its slot is another caller's now, even if the body just arrived
        raise WebhookBodyTooSlowError(
            f"the webhook body arrived at less than {reader.min_rate:g} bytes a second ({len(received):,} bytes in "
            f"{reader.held_s():.1f} s) and its reading slot went to another caller; send it at once")
    return bytes(received)


def _cut_off(reader: SlotReader, deadline: asyncio.Timeout, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """What ends ``reader``'s read when a waiting caller takes its slot: its deadline moved to now."""
    def expire() -> None:
        if not reader.done and not deadline.expired():  # a read that ended meanwhile: nothing to move
            deadline.reschedule(loop.time())

    def from_any_thread() -> None:
        loop.call_soon_threadsafe(expire)

    return from_any_thread


def _declared_length(request: Request) -> int | None:
    """The body's Content-Length, or None (chunked, or not a number)."""
    declared = request.headers.get("content-length", "")
    return int(declared) if declared.isdigit() else None


def _charge_if_slow(reader: SlotReader, path: str, timeout_s: float, *, components: WorkflowComponents) -> None:
    """Charge ``path`` if ``reader``'s read averaged below the minimum rate past its grace, however it ended (whole,
    malformed, too large or hung up), so no ending escapes what a trickle costs: the time held, and a whole bucket
    (like a 408) once it held the slot half the deadline. A sender at the minimum rate or faster, or done within
    its grace, is not charged."""
    if reader.below_rate():
        held_s = reader.held_s()
        components.limiter.charge_held(path, held_s, at_least_a_bucket=held_s >= HANG_UP_CHARGED_AFTER * timeout_s)


def _hung_up(listener: asyncio.Future[Message]) -> bool:
    """Whether ``listener`` (a receive awaited after the whole body) got the sender's hang-up. Starlette's
    ``is_disconnected`` only takes a message that is there at once, and behind the app's middleware it never saw
    the hang-up (checked under uvicorn), so the receive is awaited for as long as the body waits."""
    return listener.done() and not listener.cancelled() and listener.exception() is None \
        and listener.result()["type"] == "http.disconnect"


def _answer(method: str, result: RunResult) -> Response:
    headers = {"X-Workflow-Run-Id": result.run_id}
    if result.status is not RunStatus.SUCCEEDED:
        return JSONResponse({"code": 500, "message": f"workflow run failed: {result.error}"}, status_code=500,
                            headers=headers)
    if method == "HEAD":
        return Response(status_code=200, headers=headers)
    return JSONResponse(dict(result.outputs), headers=headers)


async def _read_and_parse(request: Request, admitted: AdmittedWebhook, query: dict[str, str], held: AsyncExitStack,
                          *, components: WorkflowComponents) -> WebhookCall:
    """Read the body under a slot, then parse it holding its bytes of the parse budget until ``held`` closes.

    Refused before reading when every slot is taken (and no slow reader's can be taken), or the path
    or client holds its share; the read ends early if a waiting caller takes its slot. A small
    body is parsed while its slot is held, so those parses in flight are bounded by the slots as the
    bodies being read are. A large body gives its slot back once read, then waits for its bytes of
    the parse budget (which bounds its parse instead) and holds them for as long as its parsed value
    lives (until its run ends), since that value can be ~50x its bytes: a body waiting its turn
    there keeps no other sender from being read.
    """
    client = request.client.host if request.client else ""
    timeout_s = components.webhook.body_timeout_s
    with components.body_slots.reading(path=admitted.path, client=client, declared=_declared_length(request)) \
            as reader:
        started = components.limiter.now()
        try:
            payload = await read_capped(request, components.webhook.max_bytes, timeout_s=timeout_s, reader=reader)
        except WebhookBodyTooSlowError:
            # Held its slot in vain until a waiting caller took it: charged the tokens of the time held.
            components.limiter.charge_held(admitted.path, components.limiter.now() - started, at_least_a_bucket=False)
            raise
        except WebhookBodyTimeoutError:
            # Held its slot in vain until the deadline: its path waits before it is served again.
            components.limiter.charge_held(admitted.path, timeout_s)
            raise
        except ClientDisconnect:
            # Hanging up just before the deadline would otherwise hold the slot as long, uncharged.
            held_s = components.limiter.now() - started
            if held_s >= HANG_UP_CHARGED_AFTER * timeout_s:
                components.limiter.charge_held(admitted.path, held_s)
            else:
                _charge_if_slow(reader, admitted.path, timeout_s, components=components)
            raise
        except BaseException:
            _charge_if_slow(reader, admitted.path, timeout_s, components=components)
            raise
        # Whole, but perhaps trickled: ending a slow read just before the deadline must not spare its path.
        _charge_if_slow(reader, admitted.path, timeout_s, components=components)
        if len(payload) <= components.parse_budget.small_bytes:
            return await run_in_threadpool(complete_webhook, admitted, payload, query, components=components)
    hang_up = asyncio.ensure_future(request.receive())  # the body is read: the next message is the hang-up
    try:
        await held.enter_async_context(components.parse_budget.holding(
            len(payload), wait_s=timeout_s, path=admitted.path, client=client, gone=lambda: _hung_up(hang_up)))
    except SenderGone:
        raise ClientDisconnect() from None  # nobody to answer, and its body is not run
    finally:
        hang_up.cancel()
    return await run_in_threadpool(complete_webhook, admitted, payload, query, components=components)


async def webhook(path: str, request: Request, components: WorkflowsDep) -> Response:
    """Run the active workflow on ``path`` with the request as its inputs (no authentication)."""
    check_method(request.method, components=components)
    # The rate token is taken from the path and headers alone: a refused call costs the server no body.
    admitted = await run_in_threadpool(admit_webhook, path, request.method, _declared_length(request),
                                       components=components)
    query = dict(request.query_params)
    # Every ingress check before the run takes a place: a client mistake is its own 4xx, however busy the server.
    async with AsyncExitStack() as held:
        if request.method.upper() not in BODY_METHODS:
            call = await run_in_threadpool(complete_webhook, admitted, b"", query, components=components)
        else:
            call = await _read_and_parse(request, admitted, query, held, components=components)
        ticket = components.capacity.admit(f"webhook:{call.path}")
        result = await asyncio.wrap_future(ticket.submit(run_webhook, call, components=components))
    return _answer(request.method, result)


# One route per method, so each has its own OpenAPI operation id.
# A body method may send a JSON object: its fields overlay the query parameters as the run's inputs.
_JSON_OBJECT_BODY = {"requestBody": {"required": False, "content": {"application/json": {"schema": {
    "type": "object", "description": "Run inputs (overlaying the query parameters)"}}}}}
for _method in sorted(WEBHOOK_METHODS):
    router.add_api_route("/webhook/{path:webhook_path}", webhook, methods=[_method],
                         operation_id=f"webhook_{_method.lower()}", summary=f"Trigger an active workflow ({_method})",
                         openapi_extra=_JSON_OBJECT_BODY if _method in BODY_METHODS else None)
