"""Dify's wire shapes for workflow apps: blocking run, ``/parameters``, ``/info`` and SSE events."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragspine.workflows.shapes import as_map, maps
from ragspine.workflows.surfaces import StoredWorkflow

if TYPE_CHECKING:
    from ragspine.workflows.run import RunResult
    from ragspine.workflows.surfaces.run_records import RunRecord

_FEATURES = ("opening_statement", "suggested_questions", "suggested_questions_after_answer", "speech_to_text",
             "text_to_speech", "retriever_resource", "sensitive_word_avoidance", "file_upload")
_DISABLED = {"enabled": False}
# What Dify reports as upload limits; runs here accept no files, so these are informational only.
SYSTEM_PARAMETERS = {"file_size_limit": 15, "image_file_size_limit": 10, "audio_file_size_limit": 50,
                     "video_file_size_limit": 100, "workflow_file_upload_limit": 10}


def sse(payload: Mapping[str, Any]) -> str:
    """One server-sent event in Dify's framing: ``data: {json}`` and a blank line."""
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"


def run_data(result: RunResult, *, workflow_id: str, created_at: int, finished_at: int) -> dict[str, Any]:
    """The ``data`` object of a blocking response and of ``workflow_finished``."""
    return {"id": result.run_id, "workflow_id": workflow_id, "status": result.status.value,
            "outputs": dict(result.outputs) if result.status.value == "succeeded" else {},
            "error": result.error, "elapsed_time": round(result.elapsed_time, 6), "total_tokens": 0,
            "total_steps": result.total_steps, "created_at": created_at, "finished_at": finished_at}


def blocking_body(result: RunResult, *, task_id: str, workflow_id: str, created_at: int,
                  finished_at: int) -> dict[str, Any]:
    """Dify's blocking ``POST /workflows/run`` response."""
    return {"task_id": task_id, "workflow_run_id": result.run_id,
            "data": run_data(result, workflow_id=workflow_id, created_at=created_at, finished_at=finished_at)}


def run_detail_body(run: RunRecord) -> dict[str, Any]:
    """Dify's ``GET /workflows/run/{workflow_run_id}``: a recorded run, times as Unix seconds."""
    return {"id": run.id, "workflow_id": run.workflow_id, "status": run.status.value, "inputs": run.inputs,
            "outputs": run.outputs, "error": run.error, "total_steps": run.total_steps,
            "total_tokens": run.total_tokens, "created_at": int(run.created_at.timestamp()),
            "finished_at": int(run.finished_at.timestamp()) if run.finished_at else None,
            "elapsed_time": run.elapsed_time}


def _start_variables(workflow: StoredWorkflow) -> list[Mapping[str, Any]]:
    graph = as_map(as_map(as_map(workflow.dify_dsl).get("workflow")).get("graph"))
    start = next((n for n in maps(graph.get("nodes")) if as_map(n.get("data")).get("type") == "start"), None)
    return maps(as_map(start.get("data")).get("variables")) if start else []


def _form_item(var: Mapping[str, Any]) -> dict[str, Any]:
    kind = str(var.get("type", "text-input"))
    control: dict[str, Any] = {"label": str(var.get("label", var.get("variable", ""))),
                               "variable": str(var.get("variable", "")), "required": bool(var.get("required")),
                               "default": ""}
    if kind in ("text-input", "paragraph") and isinstance(var.get("max_length"), int):
        control["max_length"] = var["max_length"]
    if kind == "select":
        control["options"] = [str(o) for o in var.get("options") or []]
    return {kind: control}


def parameters_body(workflow: StoredWorkflow) -> dict[str, Any]:
    """Dify's ``GET /parameters``: the input form from the start node, features from the DSL."""
    features = as_map(as_map(as_map(workflow.dify_dsl).get("workflow")).get("features"))
    body: dict[str, Any] = {name: features.get(name, _DISABLED) for name in _FEATURES}
    if not isinstance(body["opening_statement"], str):
        body["opening_statement"] = ""
    if not isinstance(body["suggested_questions"], list):
        body["suggested_questions"] = []
    body.update(annotation_reply=_DISABLED, more_like_this=_DISABLED,
                user_input_form=[_form_item(v) for v in _start_variables(workflow)],
                system_parameters=SYSTEM_PARAMETERS)
    return body


def info_body(workflow: StoredWorkflow) -> dict[str, Any]:
    """Dify's ``GET /info``: name, description, tags, mode and author."""
    app = as_map(as_map(workflow.dify_dsl).get("app"))
    return {"name": workflow.name, "description": str(app.get("description") or ""), "tags": [],
            "mode": str(app.get("mode") or "workflow"), "author_name": ""}
