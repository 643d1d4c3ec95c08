"""The ordinary workflow routes: compile, preview, analyze, convert, scaffold, and catalog search.

These carry NO app-level authentication, by design (seed 000): the deployment protects them
(in ``template.yaml`` they sit on the IAM-authorised API; locally, bind to 127.0.0.1). They
are stateless and never execute anything. Bad input is a 4xx in the seed-003 envelope whose
``fieldErrors`` name the place (``line:column`` for parse errors, a JSON pointer otherwise).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from ragspine.api.envelope import ErrorEnvelope
from ragspine.api.patterns import NOT_BLANK
from ragspine.api.query_int import ASCII_DIGITS
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.api.workflow_deps import ScaffoldOptionsDep
from ragspine.api.workflow_schemas import (
    ConvertResponse,
    ScaffoldRequest,
    ScaffoldResponse,
    WorkflowResult,
    WorkflowSourceRequest,
)
from ragspine.workflows.actions import (
    DifySource,
    analyze_source,
    compile_source,
    convert_source,
    plan_to_dict,
    preview_source,
    to_dify,
)
from ragspine.workflows.dsl import build_preview, emit
from ragspine.workflows.scaffold import scaffold_with_catalog
from ragspine.workflows.scaffold.catalog import EntryOrigin, default_catalog, entry_dict, hit_dict

router = APIRouter(tags=["workflows"], route_class=StrictJsonRoute)
_UNPROCESSABLE: dict[int | str, dict[str, Any]] = {422: {
    "model": ErrorEnvelope, "description": "The input parses but is not a workflow this route can use "
                                           "(WORKFLOW_INVALID, WORKFLOW_CYCLE, WORKFLOW_NODE_UNSUPPORTED)"}}
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorEnvelope,
                                                     "description": "No catalog entry has this id"}}


def _source(body: WorkflowSourceRequest, options: ScaffoldOptionsDep) -> DifySource:
    normalized = body.normalized()
    assert normalized is not None  # the request model requires a source
    return to_dify(normalized, options)


@router.post("/v1/workflows/compile", response_model=WorkflowResult, summary="Compile to an execution plan",
             responses=_UNPROCESSABLE)
def compile_workflow(body: WorkflowSourceRequest, options: ScaffoldOptionsDep) -> WorkflowResult:
    """Topologically ordered steps with resolved bindings (nothing is executed)."""
    source = _source(body, options)
    plan = compile_source(source)
    return WorkflowResult(origin=source.origin.value, warnings=list(source.warnings), plan=plan_to_dict(plan))


@router.post("/v1/workflows/preview", response_model=WorkflowResult, summary="Preview schema v1",
             responses=_UNPROCESSABLE)
def preview_workflow(body: WorkflowSourceRequest, options: ScaffoldOptionsDep) -> WorkflowResult:
    """Mode, nodes, edges, inputs, outputs, warnings, DSL version, origin and content hash."""
    source = _source(body, options)
    preview = preview_source(source)
    return WorkflowResult(origin=source.origin.value, warnings=list(source.warnings), preview=preview.to_dict(),
                          diagram=preview.diagram)


@router.post("/v1/workflows/analyze", response_model=WorkflowResult, summary="Analyze a Dify DSL",
             responses=_UNPROCESSABLE)
def analyze_workflow(body: WorkflowSourceRequest, options: ScaffoldOptionsDep) -> WorkflowResult:
    """Findings with severity: connectivity, start/end, cycles, node types, edges, references, version."""
    source = _source(body, options)
    return WorkflowResult(origin=source.origin.value, warnings=list(source.warnings),
                          analysis=analyze_source(source).to_dict())


@router.post("/v1/workflows/convert", response_model=ConvertResponse, summary="Convert Dify <-> n8n",
             responses=_UNPROCESSABLE)
def convert_workflow(body: WorkflowSourceRequest, options: ScaffoldOptionsDep) -> ConvertResponse:
    """Dify DSL to n8n JSON or back, with a report of every node that could not be converted."""
    normalized = body.normalized()
    assert normalized is not None
    converted = convert_source(normalized, fmt=body.output_format, dsl_version=options.dsl_version)
    return ConvertResponse(**converted.to_dict())


@router.post("/v1/workflows/scaffold", response_model=ScaffoldResponse, summary="Scaffold a Dify DSL",
             responses={**_UNPROCESSABLE, **_NOT_FOUND})
def scaffold_workflow(body: ScaffoldRequest, options: ScaffoldOptionsDep) -> ScaffoldResponse:
    """A description, a workflow or a catalog id to deterministic DSL text plus its preview."""
    result = scaffold_with_catalog(body.normalized(), catalog=default_catalog(), options=options,
                                   entry_id=body.template, match=body.match_catalog)
    made = result.scaffold
    preview = build_preview(made.document, origin=made.origin, warnings=made.warnings).to_dict()
    match = {**hit_dict(result.hit), "used": result.used} if result.hit else None
    return ScaffoldResponse(origin=made.origin.value, format=body.output_format, text=emit(made.document,
                            body.output_format), document=made.document, preview=preview,
                            warnings=list(made.warnings), match=match)


@router.get("/v1/catalog/search", summary="Search the workflow catalog (zh, en, ja)")
def search_catalog(q: Annotated[str, Query(min_length=1, max_length=500, pattern=NOT_BLANK,
                                             description="Keywords or a phrase (not only spaces)")],
                   lang: Annotated[Literal["zh", "en", "ja"] | None, Query(description="zh, en or ja")] = None,
                   limit: Annotated[int, Query(ge=1, le=100), ASCII_DIGITS] = 10) -> dict[str, Any]:
    """Hits best first, each with its score and the query terms it matched."""
    return {"hits": [hit_dict(hit) for hit in default_catalog().search(q, lang=lang, limit=limit)]}


@router.get("/v1/catalog/{entry_id}", summary="One catalog entry (with its DSL if it is a curated template)",
            responses=_NOT_FOUND)
def get_catalog_entry(entry_id: str) -> dict[str, Any]:
    """The descriptor; curated templates also carry their Dify DSL text as shipped."""
    catalog = default_catalog()
    entry = catalog.get(entry_id)
    template = catalog.template_text(entry.id) if entry.origin is EntryOrigin.TEMPLATE else None
    return {**entry_dict(entry), "template_yaml": template}
