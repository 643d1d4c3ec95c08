"""``POST /v1/ask/stream``: the answer of ``/v1/ask`` as server-sent events, with what it reads on the way.

A narrative answer takes as long as the model writes. The stream says at once that the question
was taken, then which passages are being read (document and locator, as soon as retrieval
returns them), then the whole answer, exactly as ``/v1/ask`` returns it. The model's words are
never streamed as they come: every number in an answer is checked against its sources first,
and an answer that fails the check is replaced, so unchecked text never reaches the reader.
Local service only (the deployed API answers with one response).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from ragspine.api.deps import ServicesDep
from ragspine.api.routers.ask import answer
from ragspine.api.schemas import AskRequest
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.citation import Source, source_dicts
from ragspine.errors import RagspineError
from ragspine.qa.answer import validate_question
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.qa.evidence import Evidence
    from ragspine.qa.ports import NarrativeRetriever

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["ask"], route_class=StrictJsonRoute)
KEEPALIVE_S = 10.0  # a comment line this often while the answer is being written, so no proxy drops the stream
_DONE = object()
# One event of the stream: its name, and its data as one line of JSON.
EVENT_SCHEMA = {"type": "object", "required": ["event", "data"],
                "properties": {"event": {"type": "string", "enum": ["accepted", "reading", "answer", "error"]},
                               "data": {"type": "string", "contentMediaType": "application/json"}}}
EXAMPLE = ('event: accepted\ndata: {"question_chars": 42}\n\n'
           'event: reading\ndata: {"sources": [{"doc": "FY2024_Review.docx", '
           '"locator": "heading=Revenue,para=2"}]}\n\n'
           'event: answer\ndata: {"answer": "…", "sources": [...], "parts": [...], ...}\n\n')


@dataclass(frozen=True, slots=True)
class _Reporting:
    """The narrative retriever, reporting each retrieval's citations before the model reads them."""

    inner: NarrativeRetriever
    events: queue.Queue[Any]
    ceiling: Sensitivity

    def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
        found = self.inner.retrieve(query, top_k=top_k, max_sensitivity=max_sensitivity)
        # Only what the answer itself may cite: nothing RESTRICTED, nothing above the ceiling.
        shown = [e for e in found if e.sensitivity < Sensitivity.RESTRICTED and e.sensitivity <= self.ceiling]
        self.events.put(("reading", {"sources": list(source_dicts(Source(e.doc, e.locator) for e in shown))}))
        return found


def sse(event: str, data: Any) -> str:
    """One server-sent event (``data`` as one line of JSON)."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


@router.post(
    "/ask/stream", summary="Answer a question as server-sent events (local service)",
    response_class=StreamingResponse,
    responses={200: {"description": "`text/event-stream`: `accepted` ({question_chars}), then `reading` "
                                    "({sources: [{doc, locator}]}) for each retrieval, then `answer` (the "
                                    "AskResponse of POST /v1/ask) or `error` ({error: {code, message}}); lines "
                                    "starting with `:` keep the connection open.",
                     "content": {"text/event-stream": {"schema": EVENT_SCHEMA, "example": EXAMPLE}}}})
def ask_stream(body: AskRequest, services: ServicesDep) -> StreamingResponse:
    """The answer of ``POST /v1/ask``, with the passages it reads announced as it reads them."""
    # Refused as /v1/ask refuses it (400), before the stream starts: once it has, the status is 200.
    validate_question(body.question, max_chars=services.qa.max_chars)
    events: queue.Queue[Any] = queue.Queue()
    qa = services.qa
    if qa.retriever is not None:
        qa = replace(qa, retriever=_Reporting(qa.retriever, events, qa.max_sensitivity))

    def work() -> None:
        try:
            events.put(("answer", answer(body, services, qa).model_dump(mode="json")))
        except RagspineError as exc:
            events.put(("error", {"error": {"code": exc.code, "message": exc.message}}))
        except Exception:  # the stream has started: the reader gets an error event, the log gets the trace
            logger.exception("a streamed answer failed")
            events.put(("error", {"error": {"code": RagspineError.code, "message": "the answer failed: ask again"}}))
        finally:
            events.put(_DONE)

    def stream() -> Iterator[str]:
        yield sse("accepted", {"question_chars": len(body.question)})
        threading.Thread(target=work, name="ask-stream", daemon=True).start()
        while True:
            try:
                item = events.get(timeout=KEEPALIVE_S)
            except queue.Empty:
                yield ": writing\n\n"
                continue
            if item is _DONE:
                return
            yield sse(*item)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
