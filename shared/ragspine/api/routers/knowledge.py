"""The Knowledge Gateway router (seed 003) under ``/internal/v1/knowledge``: one route per contract operation.

Each ``@_tool`` function is named after its contract tool and does only that tool's work; its
route goes through ``handle``, which authenticates, validates the body against the contract's
closed schema, applies Idempotency-Key to mutations, runs the work and audits. The signed upload
and download URLs are plain routes: their signature is the credential.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from ragspine.api.body_limits import BodyLimits
from ragspine.api.errors import error_response
from ragspine.api.knowledge_deps import GatewayDep, HooksDep
from ragspine.api.knowledge_http import Call, Reply, envelope, handle, int_param, page_of
from ragspine.api.knowledge_paths import GatewayIdConvertor  # noqa: F401 - registers {…:gateway_id}
from ragspine.api.knowledge_views import (
    change_view,
    citation_view,
    detail_view,
    download_view,
    iso,
    operation_view,
    space_view,
    summary_view,
)
from ragspine.api.query_int import ascii_int
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.errors import FieldError, InvalidInputError, PayloadTooLargeError, RagspineError
from ragspine.knowledge import documents, files, operations, spaces
from ragspine.knowledge.contract import PREFIX
from ragspine.lazy import LazyModule
from ragspine.settings import Settings

if TYPE_CHECKING:
    from ragspine.knowledge import citations, downloads
    from ragspine.knowledge import search as search_tool
    from ragspine.knowledge.gateway import Gateway
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    citations = LazyModule("ragspine.knowledge.citations")
    downloads = LazyModule("ragspine.knowledge.downloads")
    search_tool = LazyModule("ragspine.knowledge.search")

router = APIRouter(prefix=PREFIX, tags=["knowledge"], include_in_schema=False, route_class=StrictJsonRoute)
_ID = re.compile(r"^[A-Za-z0-9._-]+$")  # the contract's id pattern
Run = Callable[..., Reply]  # a tool's work: (gateway, call, *path parameters[, base_url=]) -> reply


def _tool(method: str, path: str, *, resource: str = "", base_url: bool = False) -> Callable[[Run], Run]:
    """Serve the decorated function as the route of the contract tool it is named after.

    The function receives the Gateway, the validated ``Call`` and the path parameters in path
    order (and ``base_url=``, the public URL links are built on, when asked); ``handle`` audits the
    first path parameter as the resource, else ``resource``.
    """
    def register(run: Run) -> Run:
        tool = run.__name__

        async def endpoint(request: Request, gw: GatewayDep, hooks: HooksDep) -> JSONResponse:
            ids = list(request.path_params.values())
            extra = {"base_url": gw.config.public_url or str(request.base_url)} if base_url else {}
            return await handle(hooks, request, tool, ids[0] if ids else resource,
                                lambda call: run(gw, call, *ids, **extra))
        router.add_api_route(path, endpoint, methods=[method], name=tool)
        return run
    return register


@_tool("GET", "/spaces", resource="spaces")
def knowledge_space_list(gw: Gateway, call: Call) -> Reply:
    items, pagination = page_of(spaces.list_spaces(gw, call.principal), call.page, call.page_size)
    return Reply(200, {"items": [space_view(gw, s) for s in items]}, pagination)


@_tool("POST", "/spaces", resource="spaces")
def knowledge_space_create(gw: Gateway, call: Call) -> Reply:
    return Reply(201, space_view(gw, spaces.create_space(gw, call.principal, call.body)))


@_tool("GET", "/spaces/{knowledgeSpaceId}")
def knowledge_space_get(gw: Gateway, call: Call, space_id: str) -> Reply:
    return Reply(200, space_view(gw, spaces.get_space(gw, call.principal, space_id)))


@_tool("PATCH", "/spaces/{knowledgeSpaceId}")
def knowledge_space_update(gw: Gateway, call: Call, space_id: str) -> Reply:
    return Reply(200, space_view(gw, spaces.update_space(gw, call.principal, space_id, call.body)))


@_tool("DELETE", "/spaces/{knowledgeSpaceId}")
def knowledge_space_delete(gw: Gateway, call: Call, space_id: str) -> Reply:
    return Reply(200, space_view(gw, spaces.delete_space(gw, call.principal, space_id, call.body)))


@_tool("GET", "/spaces/{knowledgeSpaceId}/documents")
def knowledge_document_list(gw: Gateway, call: Call, space_id: str) -> Reply:
    items, pagination = page_of(documents.list_documents(gw, call.principal, space_id), call.page, call.page_size)
    return Reply(200, {"items": [summary_view(gw, d) for d in items]}, pagination)


@_tool("POST", "/spaces/{knowledgeSpaceId}/documents")
def knowledge_document_upload(gw: Gateway, call: Call, space_id: str) -> Reply:
    return Reply(202, change_view(gw, *documents.upload_document(gw, call.principal, space_id, call.body)))


@_tool("POST", "/spaces/{knowledgeSpaceId}/file-resources", base_url=True)
def file_resource_create(gw: Gateway, call: Call, space_id: str, *, base_url: str) -> Reply:
    resource, url = files.create_file_resource(gw, call.principal, space_id, call.body, base_url=base_url)
    return Reply(201, {"fileResourceId": resource.id, "uploadUrl": url, "uploadMethod": "PUT",
                       "expiresAt": iso(resource.expires_at)})


@_tool("GET", "/documents/{documentId:gateway_id}")
def knowledge_document_get(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(200, detail_view(gw, documents.visible_document(gw, call.principal, document_id)))


@_tool("PATCH", "/documents/{documentId:gateway_id}")
def knowledge_document_update(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(200, summary_view(gw, documents.update_document(gw, call.principal, document_id, call.body)))


@_tool("DELETE", "/documents/{documentId:gateway_id}")
def knowledge_document_delete(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(200, summary_view(gw, documents.delete_document(gw, call.principal, document_id, call.body)))


@_tool("POST", "/documents/{documentId}:replace")
def knowledge_document_replace(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(202, change_view(gw, *documents.replace_document(gw, call.principal, document_id, call.body)))


@_tool("POST", "/documents/{documentId}:reindex")
def knowledge_document_reindex(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(202, change_view(gw, *documents.reindex_document(gw, call.principal, document_id, call.body)))


@_tool("POST", "/documents/{documentId}:enable")
def knowledge_document_enable(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(200, summary_view(gw, documents.set_enabled(gw, call.principal, document_id, call.body,
                                                             enabled=True)))


@_tool("POST", "/documents/{documentId}:disable")
def knowledge_document_disable(gw: Gateway, call: Call, document_id: str) -> Reply:
    return Reply(200, summary_view(gw, documents.set_enabled(gw, call.principal, document_id, call.body,
                                                             enabled=False)))


@_tool("GET", "/operations/{operationId:gateway_id}")
def knowledge_operation_get(gw: Gateway, call: Call, operation_id: str) -> Reply:
    operation, _ = operations.visible_operation(gw, call.principal, operation_id)
    return Reply(200, operation_view(gw, operation))


@_tool("POST", "/operations/{operationId}:cancel")
def knowledge_operation_cancel(gw: Gateway, call: Call, operation_id: str) -> Reply:
    return Reply(200, operation_view(gw, operations.cancel_operation(gw, call.principal, operation_id)))


@_tool("POST", "/operations/{operationId}:retry")
def knowledge_operation_retry(gw: Gateway, call: Call, operation_id: str) -> Reply:
    child = operations.retry_operation(gw, call.principal, operation_id, call.body["reason"])
    state = operations.run_state(gw, child.id)
    return Reply(202, {"operationId": child.id, "parentOperationId": operation_id, "status": state.status.value})


@router.put("/file-resources/{fileResourceId}/content")
async def file_resource_upload(fileResourceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                               hooks: HooksDep) -> JSONResponse:
    """file_resource_upload: the signed URL is the credential (as an S3 presigned PUT is)."""
    try:
        expires, signature = _signed_query(request, invalid_link=files.invalid_upload_url)
        # The signature is the credential: checked before the body is read, which is then read only up
        # to the size the file resource declared.
        resource = await run_in_threadpool(files.check_upload_link, gw, fileResourceId, expires=expires,
                                           signature=signature)
        data = await _bounded_body(request, min(gw.config.upload_max_bytes, resource.file_size))
        resource = await run_in_threadpool(files.receive_upload, gw, fileResourceId, expires=expires,
                                           signature=signature, data=data)
    except RagspineError as exc:
        return error_response(request, exc.http_status, code=exc.code, message=exc.message, retryable=exc.retryable,
                              field_errors=exc.field_errors)
    return envelope(request, Reply(200, {"fileResourceId": resource.id, "fileName": resource.file_name,
                                         "mimeType": resource.mime_type, "fileSize": resource.file_size,
                                         "status": "UPLOADED"}))


def _signed_query(request: Request, *, invalid_link: Callable[[], RagspineError]) -> tuple[int, str]:
    """``expires`` and ``signature`` of a signed link, exactly as the service writes them.

    Raises:
        InvalidInputError: a parameter is missing, unknown or not a number.
        RagspineError: from ``invalid_link``, when the query was altered in a form the signature does not cover
            (``expires=0…`` or a repeated parameter, of which a reader might take another than the checker).
    """
    query = request.query_params
    unknown = sorted(set(query) - {"expires", "signature"})
    if not unknown and len(query.multi_items()) != len(query):
        raise invalid_link()
    raw_expires = query.get("expires", "")
    expires, signature = ascii_int(raw_expires), query.get("signature", "")
    if unknown or expires is None or not signature or len(signature) > 128:
        raise InvalidInputError("the URL is malformed: use the URL exactly as it was returned",
                                field_errors=tuple(FieldError(n, "not allowed") for n in unknown)
                                or (FieldError("signature", "expires and signature are required"),))
    if raw_expires != str(expires):
        raise invalid_link()
    return expires, signature


async def _bounded_body(request: Request, limit: int) -> bytes:
    """The body, refused (413) as soon as it passes ``limit`` bytes, announced or not."""
    length = ascii_int(request.headers.get("content-length", ""), max_digits=20)
    if length is not None and length > limit:
        raise PayloadTooLargeError(f"the file has {length} bytes; the limit for this upload is {limit}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLargeError(f"the file has more than {limit} bytes, the limit for this upload")
        chunks.append(chunk)
    return b"".join(chunks)


def install(app: FastAPI, settings: Settings) -> None:
    """Mount the Gateway: its router, file uploads past the JSON body limit, and no redirects ever."""
    app.include_router(router)
    limits = getattr(app.state, "body_limits", None) or BodyLimits.from_settings(settings)
    app.state.body_limits = limits.with_surface(f"{PREFIX}/file-resources/", settings.knowledge_upload_max_bytes
                                                ).reading_in_route(f"{PREFIX}/")
    app.router.redirect_slashes = False  # seed 003: the Gateway never redirects (a token must not follow one)


@_tool("POST", "/search", resource="search")
def knowledge_search(gw: Gateway, call: Call) -> Reply:
    """Authorised hybrid search (``ragspine.knowledge.search``)."""
    return Reply(200, search_tool.search(gw, call.principal, call.body).to_json())


# --- knowledge_source_read and knowledge_document_download --------------------------------------

@_tool("GET", "/documents/{documentId}/citations/{citationId}")
def knowledge_source_read(gw: Gateway, call: Call, document_id: str, citation_id: str) -> Reply:
    """The caller is authorised again on every read."""
    version_id = call.query.get("versionId", "")
    if not version_id or len(version_id) > 128 or not _ID.match(version_id):
        raise InvalidInputError("versionId is required: use the versionId of the knowledge_search hit",
                                field_errors=(FieldError("versionId", "the hit's versionId is required"),))
    bounds = {"default": citations.DEFAULT_CONTEXT, "low": 0, "high": citations.MAX_CONTEXT}
    before = int_param(call.query, "contextBefore", **bounds)
    after = int_param(call.query, "contextAfter", **bounds)
    read = citations.read_citation(gw, call.principal, document_id, citation_id, version_id=version_id,
                                   context_before=before, context_after=after)
    return Reply(200, citation_view(read))


@_tool("POST", "/documents/{documentId}:create-download-link", base_url=True)
def knowledge_document_download(gw: Gateway, call: Call, document_id: str, *, base_url: str) -> Reply:
    """A new 60-second link on every call (never replayed)."""
    return Reply(200, download_view(downloads.create_download_link(gw, call.principal, document_id,
                                                                   base_url=base_url)))


@router.get("/downloads/{versionId}", response_model=None)
async def file_download(versionId: str, request: Request, gw: GatewayDep) -> Response:  # noqa: N803
    """file_download: the signed link is the credential (as an S3 presigned GET is); streams the bytes."""


    try:
        expires, signature = _signed_query(request, invalid_link=downloads.invalid_link)
        found = await run_in_threadpool(downloads.open_download, gw, versionId, expires=expires, signature=signature)
    except RagspineError as exc:
        return error_response(request, exc.http_status, code=exc.code, message=exc.message, retryable=exc.retryable,
                              field_errors=exc.field_errors)
    disposition = f"attachment; filename*=UTF-8''{quote(found.file_name, safe='')}"
    return FileResponse(found.path, media_type=found.mime_type,
                        headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})
