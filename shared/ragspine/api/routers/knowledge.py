"""The Knowledge Gateway router (seed 003) under ``/internal/v1/knowledge``: one route per contract operation.

Each route names its contract tool; ``handle`` authenticates, validates the body against the
contract's closed schema, applies Idempotency-Key to mutations, runs the service and audits.
"""

from __future__ import annotations

import re

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ragspine.api.body_limits import BodyLimits
from ragspine.api.errors import error_response
from ragspine.api.knowledge_deps import GatewayDep, HooksDep
from ragspine.api.knowledge_http import Call, Reply, envelope, handle, page_of
from ragspine.api.knowledge_paths import GatewayIdConvertor  # noqa: F401 - registers {…:gateway_id}
from ragspine.api.knowledge_views import change_view, detail_view, operation_view, space_view, summary_view
from ragspine.errors import FieldError, InvalidInputError, PayloadTooLargeError, RagspineError
from ragspine.knowledge import documents, files, operations, spaces
from ragspine.knowledge.contract import PREFIX
from ragspine.settings import Settings

router = APIRouter(prefix=PREFIX, tags=["knowledge"], include_in_schema=False)
_ID = re.compile(r"^[A-Za-z0-9._-]+$")  # the contract's id pattern


@router.get("/spaces")
async def knowledge_space_list(request: Request, gw: GatewayDep, hooks: HooksDep) -> JSONResponse:
    """knowledge_space_list."""
    def run(call: Call) -> Reply:
        items, pagination = page_of(spaces.list_spaces(gw, call.principal), call.page, call.page_size)
        return Reply(200, {"items": [space_view(gw, s) for s in items]}, pagination)
    return await handle(hooks, request, "knowledge_space_list", "spaces", run)


@router.post("/spaces")
async def knowledge_space_create(request: Request, gw: GatewayDep, hooks: HooksDep) -> JSONResponse:
    """knowledge_space_create."""
    def run(call: Call) -> Reply:
        return Reply(201, space_view(gw, spaces.create_space(gw, call.principal, call.body)))
    return await handle(hooks, request, "knowledge_space_create", "spaces", run)


@router.get("/spaces/{knowledgeSpaceId}")
async def knowledge_space_get(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                              hooks: HooksDep) -> JSONResponse:
    """knowledge_space_get."""
    def run(call: Call) -> Reply:
        return Reply(200, space_view(gw, spaces.get_space(gw, call.principal, knowledgeSpaceId)))
    return await handle(hooks, request, "knowledge_space_get", knowledgeSpaceId, run)


@router.patch("/spaces/{knowledgeSpaceId}")
async def knowledge_space_update(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                 hooks: HooksDep) -> JSONResponse:
    """knowledge_space_update."""
    def run(call: Call) -> Reply:
        return Reply(200, space_view(gw, spaces.update_space(gw, call.principal, knowledgeSpaceId, call.body)))
    return await handle(hooks, request, "knowledge_space_update", knowledgeSpaceId, run)


@router.delete("/spaces/{knowledgeSpaceId}")
async def knowledge_space_delete(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                 hooks: HooksDep) -> JSONResponse:
    """knowledge_space_delete."""
    def run(call: Call) -> Reply:
        return Reply(200, space_view(gw, spaces.delete_space(gw, call.principal, knowledgeSpaceId, call.body)))
    return await handle(hooks, request, "knowledge_space_delete", knowledgeSpaceId, run)


@router.get("/spaces/{knowledgeSpaceId}/documents")
async def knowledge_document_list(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                  hooks: HooksDep) -> JSONResponse:
    """knowledge_document_list."""
    def run(call: Call) -> Reply:
        found = documents.list_documents(gw, call.principal, knowledgeSpaceId)
        items, pagination = page_of(found, call.page, call.page_size)
        return Reply(200, {"items": [summary_view(gw, d) for d in items]}, pagination)
    return await handle(hooks, request, "knowledge_document_list", knowledgeSpaceId, run)


@router.post("/spaces/{knowledgeSpaceId}/documents")
async def knowledge_document_upload(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                    hooks: HooksDep) -> JSONResponse:
    """knowledge_document_upload."""
    def run(call: Call) -> Reply:
        document, version, operation_id = documents.upload_document(gw, call.principal, knowledgeSpaceId, call.body)
        return Reply(202, change_view(gw, document, version, operation_id))
    return await handle(hooks, request, "knowledge_document_upload", knowledgeSpaceId, run)


@router.post("/spaces/{knowledgeSpaceId}/file-resources")
async def file_resource_create(knowledgeSpaceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                               hooks: HooksDep) -> JSONResponse:
    """file_resource_create."""
    from ragspine.api.knowledge_views import iso

    def run(call: Call) -> Reply:
        base_url = gw.config.public_url or str(request.base_url)
        resource, url = files.create_file_resource(gw, call.principal, knowledgeSpaceId, call.body,
                                                   base_url=base_url)
        return Reply(201, {"fileResourceId": resource.id, "uploadUrl": url, "uploadMethod": "PUT",
                           "expiresAt": iso(resource.expires_at)})
    return await handle(hooks, request, "file_resource_create", knowledgeSpaceId, run)


@router.get("/documents/{documentId:gateway_id}")
async def knowledge_document_get(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                 hooks: HooksDep) -> JSONResponse:
    """knowledge_document_get."""
    def run(call: Call) -> Reply:
        return Reply(200, detail_view(gw, documents.visible_document(gw, call.principal, documentId)))
    return await handle(hooks, request, "knowledge_document_get", documentId, run)


@router.patch("/documents/{documentId:gateway_id}")
async def knowledge_document_update(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                    hooks: HooksDep) -> JSONResponse:
    """knowledge_document_update."""
    def run(call: Call) -> Reply:
        return Reply(200, summary_view(gw, documents.update_document(gw, call.principal, documentId, call.body)))
    return await handle(hooks, request, "knowledge_document_update", documentId, run)


@router.delete("/documents/{documentId:gateway_id}")
async def knowledge_document_delete(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                    hooks: HooksDep) -> JSONResponse:
    """knowledge_document_delete."""
    def run(call: Call) -> Reply:
        return Reply(200, summary_view(gw, documents.delete_document(gw, call.principal, documentId, call.body)))
    return await handle(hooks, request, "knowledge_document_delete", documentId, run)


@router.post("/documents/{documentId}:replace")
async def knowledge_document_replace(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                     hooks: HooksDep) -> JSONResponse:
    """knowledge_document_replace."""
    def run(call: Call) -> Reply:
        document, version, operation_id = documents.replace_document(gw, call.principal, documentId, call.body)
        return Reply(202, change_view(gw, document, version, operation_id))
    return await handle(hooks, request, "knowledge_document_replace", documentId, run)


@router.post("/documents/{documentId}:reindex")
async def knowledge_document_reindex(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                     hooks: HooksDep) -> JSONResponse:
    """knowledge_document_reindex."""
    def run(call: Call) -> Reply:
        document, version, operation_id = documents.reindex_document(gw, call.principal, documentId, call.body)
        return Reply(202, change_view(gw, document, version, operation_id))
    return await handle(hooks, request, "knowledge_document_reindex", documentId, run)


@router.post("/documents/{documentId}:enable")
async def knowledge_document_enable(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                    hooks: HooksDep) -> JSONResponse:
    """knowledge_document_enable."""
    def run(call: Call) -> Reply:
        changed = documents.set_enabled(gw, call.principal, documentId, call.body, enabled=True)
        return Reply(200, summary_view(gw, changed))
    return await handle(hooks, request, "knowledge_document_enable", documentId, run)


@router.post("/documents/{documentId}:disable")
async def knowledge_document_disable(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                     hooks: HooksDep) -> JSONResponse:
    """knowledge_document_disable."""
    def run(call: Call) -> Reply:
        changed = documents.set_enabled(gw, call.principal, documentId, call.body, enabled=False)
        return Reply(200, summary_view(gw, changed))
    return await handle(hooks, request, "knowledge_document_disable", documentId, run)


@router.get("/operations/{operationId:gateway_id}")
async def knowledge_operation_get(operationId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                  hooks: HooksDep) -> JSONResponse:
    """knowledge_operation_get."""
    def run(call: Call) -> Reply:
        operation, _ = operations.visible_operation(gw, call.principal, operationId)
        return Reply(200, operation_view(gw, operation))
    return await handle(hooks, request, "knowledge_operation_get", operationId, run)


@router.post("/operations/{operationId}:cancel")
async def knowledge_operation_cancel(operationId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                     hooks: HooksDep) -> JSONResponse:
    """knowledge_operation_cancel."""
    def run(call: Call) -> Reply:
        return Reply(200, operation_view(gw, operations.cancel_operation(gw, call.principal, operationId)))
    return await handle(hooks, request, "knowledge_operation_cancel", operationId, run)


@router.post("/operations/{operationId}:retry")
async def knowledge_operation_retry(operationId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                    hooks: HooksDep) -> JSONResponse:
    """knowledge_operation_retry."""
    def run(call: Call) -> Reply:
        child = operations.retry_operation(gw, call.principal, operationId, call.body["reason"])
        state = operations.run_state(gw, child.id)
        return Reply(202, {"operationId": child.id, "parentOperationId": operationId, "status": state.status.value})
    return await handle(hooks, request, "knowledge_operation_retry", operationId, run)


@router.put("/file-resources/{fileResourceId}/content")
async def file_resource_upload(fileResourceId: str, request: Request, gw: GatewayDep,  # noqa: N803
                               hooks: HooksDep) -> JSONResponse:
    """file_resource_upload: the signed URL is the credential (as an S3 presigned PUT is)."""
    try:
        expires, signature = _signed_query(request)
        data = await _bounded_body(request, gw.config.upload_max_bytes)
        resource = await run_in_threadpool(files.receive_upload, gw, fileResourceId, expires=expires,
                                           signature=signature, data=data)
    except RagspineError as exc:
        return error_response(request, exc.http_status, code=exc.code, message=exc.message, retryable=exc.retryable,
                              field_errors=exc.field_errors)
    return envelope(request, Reply(200, {"fileResourceId": resource.id, "fileName": resource.file_name,
                                         "mimeType": resource.mime_type, "fileSize": resource.file_size,
                                         "status": "UPLOADED"}))


def _signed_query(request: Request) -> tuple[int, str]:
    query = request.query_params
    unknown = sorted(set(query) - {"expires", "signature"})
    expires, signature = query.get("expires", ""), query.get("signature", "")
    if unknown or not expires.isdigit() or not signature or len(signature) > 128:
        raise InvalidInputError("the URL is malformed: use the URL exactly as it was returned",
                                field_errors=tuple(FieldError(n, "not allowed") for n in unknown)
                                or (FieldError("signature", "expires and signature are required"),))
    return int(expires), signature


async def _bounded_body(request: Request, limit: int) -> bytes:
    """The body, refused (413) as soon as it passes ``limit`` bytes, announced or not."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise PayloadTooLargeError(f"the file has {length} bytes; the limit is {limit}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLargeError(f"the file has more than {limit} bytes, the limit")
        chunks.append(chunk)
    return b"".join(chunks)


def install(app: FastAPI, settings: Settings) -> None:
    """Mount the Gateway: its router, file uploads past the JSON body limit, and no redirects ever."""
    app.include_router(router)
    limits = getattr(app.state, "body_limits", None) or BodyLimits.from_settings(settings)
    app.state.body_limits = limits.with_surface(f"{PREFIX}/file-resources/", settings.knowledge_upload_max_bytes)
    app.router.redirect_slashes = False  # seed 003: the Gateway never redirects (a token must not follow one)


@router.post("/search")
async def knowledge_search(request: Request, gw: GatewayDep, hooks: HooksDep) -> JSONResponse:
    """knowledge_search: authorised hybrid search (``ragspine.knowledge.search``)."""
    from ragspine.knowledge.search import search

    def run(call: Call) -> Reply:
        return Reply(200, search(gw, call.principal, call.body).to_json())
    return await handle(hooks, request, "knowledge_search", "search", run)


# --- knowledge_source_read and knowledge_document_download (issue 14) ---------------------------

@router.get("/documents/{documentId}/citations/{citationId}")
async def knowledge_source_read(documentId: str, citationId: str, request: Request,  # noqa: N803
                                gw: GatewayDep, hooks: HooksDep) -> JSONResponse:
    """knowledge_source_read: the caller is authorised again on every read."""
    from ragspine.api.knowledge_http import int_param
    from ragspine.api.knowledge_views import citation_view
    from ragspine.knowledge import citations

    def run(call: Call) -> Reply:
        version_id = call.query.get("versionId", "")
        if not version_id or len(version_id) > 128 or not _ID.match(version_id):
            raise InvalidInputError("versionId is required: use the versionId of the knowledge_search hit",
                                    field_errors=(FieldError("versionId", "the hit's versionId is required"),))
        bounds = {"default": citations.DEFAULT_CONTEXT, "low": 0, "high": citations.MAX_CONTEXT}
        before = int_param(call.query, "contextBefore", **bounds)
        after = int_param(call.query, "contextAfter", **bounds)
        read = citations.read_citation(gw, call.principal, documentId, citationId, version_id=version_id,
                                       context_before=before, context_after=after)
        return Reply(200, citation_view(read))
    return await handle(hooks, request, "knowledge_source_read", documentId, run)


@router.post("/documents/{documentId}:create-download-link")
async def knowledge_document_download(documentId: str, request: Request, gw: GatewayDep,  # noqa: N803
                                      hooks: HooksDep) -> JSONResponse:
    """knowledge_document_download: a new 60-second link on every call (never replayed)."""
    from ragspine.api.knowledge_views import download_view
    from ragspine.knowledge import downloads

    def run(call: Call) -> Reply:
        base_url = gw.config.public_url or str(request.base_url)
        return Reply(200, download_view(downloads.create_download_link(gw, call.principal, documentId,
                                                                       base_url=base_url)))
    return await handle(hooks, request, "knowledge_document_download", documentId, run)


@router.get("/downloads/{versionId}", response_model=None)
async def file_download(versionId: str, request: Request, gw: GatewayDep) -> Response:  # noqa: N803
    """file_download: the signed link is the credential (as an S3 presigned GET is); streams the bytes."""
    from urllib.parse import quote

    from fastapi.responses import FileResponse

    from ragspine.knowledge import downloads

    try:
        expires, signature = _signed_query(request)
        found = await run_in_threadpool(downloads.open_download, gw, versionId, expires=expires, signature=signature)
    except RagspineError as exc:
        return error_response(request, exc.http_status, code=exc.code, message=exc.message, retryable=exc.retryable,
                              field_errors=exc.field_errors)
    disposition = f"attachment; filename*=UTF-8''{quote(found.file_name, safe='')}"
    return FileResponse(found.path, media_type=found.mime_type,
                        headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})
