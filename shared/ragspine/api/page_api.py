"""The page's own API on AWS: evidence, the corpus documents and their facts, readers' feedback.

The page Lambda routes these calls here after the HTTP API's JWT authorizer has checked the
reader's token; the bodies are the local service's (``evidence.views``), read through the AWS
adapters: operations and active versions from the ingest table, the files from S3, facts from
the fact table, feedback in its own table. Listing feedback needs the administrators' group in
the token's groups claim (``cognito:groups`` or ``groups``).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ragspine import json_input
from ragspine.errors import ConfigurationError, FieldError, ForbiddenError, InvalidInputError, RagspineError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from ragspine import bootstrap, sensitivity
    from ragspine import settings as ragspine_settings
    from ragspine.aws import dynamo_facts, dynamo_feedback, dynamo_knowledge
    from ragspine.evidence import library as evidence_library
    from ragspine.evidence import views
    from ragspine.evidence.library import EvidenceLibrary
    from ragspine.evidence.views import SourceFacts
    from ragspine.feedback.store import FeedbackLog
else:
    # Loaded on the first request: the page function's cold start imports only its handler.
    bootstrap = LazyModule("ragspine.bootstrap")
    ragspine_settings = LazyModule("ragspine.settings")
    dynamo_facts = LazyModule("ragspine.aws.dynamo_facts")
    dynamo_feedback = LazyModule("ragspine.aws.dynamo_feedback")
    dynamo_knowledge = LazyModule("ragspine.aws.dynamo_knowledge")
    evidence_library = LazyModule("ragspine.evidence.library")
    views = LazyModule("ragspine.evidence.views")
    sensitivity = LazyModule("ragspine.sensitivity")


ADMIN_GROUP_ENV = "RAGSPINE_PAGE_ADMIN_GROUP"
DEFAULT_ADMIN_GROUP = "ragspine-admins"
GROUP_CLAIMS = ("cognito:groups", "groups")
API_ROUTES = frozenset({("GET", "/v1/evidence"), ("GET", "/v1/documents"), ("GET", "/v1/documents/facts"),
                        ("GET", "/v1/feedback"), ("POST", "/v1/feedback")})
MAX_BODY_CHARS = 200_000
_Model = TypeVar("_Model", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class PageStores:
    """What the page's API reads and writes."""

    library: EvidenceLibrary
    facts: SourceFacts
    feedback: FeedbackLog


@functools.cache
def aws_stores() -> PageStores:
    """The deployed stores, from the settings (built once per Lambda container)."""
    settings = ragspine_settings.get_settings()
    if not (settings.facts_table and settings.feedback_table):
        raise ConfigurationError("RAGSPINE_FACTS_TABLE and RAGSPINE_FEEDBACK_TABLE are required by the page's API")
    operations, staging = bootstrap.build_operation_stores(settings)
    region, endpoint = settings.aws_region, settings.dynamodb_endpoint_url
    gateway_status = None
    if settings.knowledge_table:
        knowledge = dynamo_knowledge.DynamoKnowledgeStore(settings.knowledge_table, region=region,
                                                          endpoint_url=endpoint)

        def gateway_status(document_id: str) -> str | None:
            document = knowledge.document(document_id)
            return document.status.value if document is not None else None

    # The Ask function's ceiling: the evidence never shows what no answer could quote.
    library = evidence_library.EvidenceLibrary(operations, staging,
                                               max_sensitivity=sensitivity.Sensitivity.CONFIDENTIAL,
                                               gateway_status=gateway_status, sources=bootstrap.source_readers())
    return PageStores(
        library=library,
        facts=dynamo_facts.DynamoFactStore(settings.facts_table, region=region, endpoint_url=endpoint),
        feedback=dynamo_feedback.DynamoFeedbackStore(settings.feedback_table, region=region, endpoint_url=endpoint))


def is_api_route(method: str, path: str) -> bool:
    """Whether the page's API answers ``method path`` (else it is a page file)."""
    return (method, path) in API_ROUTES


def handle(stores: PageStores, method: str, path: str, query: dict[str, str], body: bytes | str | None,
           claims: dict[str, Any]) -> tuple[int, Any]:
    """``(status, JSON body)`` of one API call; an error is ``{"error": {code, message}}`` as locally."""
    try:
        if path == "/v1/evidence":
            return 200, views.evidence_view(stores.library, _model(views.EvidenceQuery, query)).model_dump()
        if path == "/v1/documents":
            return 200, [d.model_dump() for d in views.corpus_documents(stores.library, stores.facts)]
        if path == "/v1/documents/facts":
            doc = _model(views.EvidenceQuery, {"locator": "-", **query}).doc
            return 200, views.document_facts(stores.library, stores.facts, doc).model_dump()
        if method == "POST":
            request = _model(views.FeedbackRequest, _json(body))
            item = stores.feedback.add(**request.model_dump())
            return 201, views.FeedbackModel.model_validate(item.as_dict()).model_dump()
        _require_admin(claims)
        limit = _limit(query.get("limit"))
        return 200, [views.FeedbackModel.model_validate(f.as_dict()).model_dump()
                     for f in stores.feedback.list(limit=limit)]
    except RagspineError as exc:
        return exc.http_status, {"error": {"code": exc.code, "message": exc.message,
                                           "fieldErrors": [{"field": f.field, "message": f.message}
                                                           for f in exc.field_errors]}}


def _model(model: type[_Model], data: object) -> _Model:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = tuple(FieldError(".".join(str(p) for p in e["loc"]) or "body", e["msg"]) for e in exc.errors())
        names = ", ".join(f.field for f in errors)
        raise InvalidInputError(f"invalid {names}: {errors[0].message}", field_errors=errors) from exc


def _json(body: bytes | str | None) -> object:
    if not body:
        raise InvalidInputError("the feedback needs a JSON body with reason, question and answer")
    if len(body) > MAX_BODY_CHARS:
        raise InvalidInputError(f"the feedback body is over {MAX_BODY_CHARS:,} characters; shorten the answer quoted")
    try:
        return json_input.loads(body)  # strict UTF-8, bounded nesting, no lone surrogates, as on every JSON route
    except json_input.MalformedJsonError as exc:
        raise InvalidInputError(f"the feedback body is not JSON: {exc.msg}",
                                field_errors=(FieldError(exc.field, exc.msg),)) from exc


def _limit(text: str | None) -> int:
    if text is None:
        return 100
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise InvalidInputError(f"limit={text!r}: give a whole number from 1 to 1000")
    return int(text)


def groups_of(claims: dict[str, Any]) -> set[str]:
    """The groups a token names (a list, or API Gateway's flattened ``[a b]`` / ``a,b`` string)."""
    found: set[str] = set()
    for name in GROUP_CLAIMS:
        value = claims.get(name)
        if isinstance(value, list):
            found |= {str(v) for v in value}
        elif isinstance(value, str):
            found |= {v for v in value.strip("[]").replace(",", " ").split() if v}
    return found


def _require_admin(claims: dict[str, Any]) -> None:
    group = os.environ.get(ADMIN_GROUP_ENV, "").strip() or DEFAULT_ADMIN_GROUP
    if group not in groups_of(claims):
        raise ForbiddenError(f"the feedback list is for administrators: ask to be added to the {group!r} group")

