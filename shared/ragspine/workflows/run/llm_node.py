"""The llm node: render Dify's prompt template into messages and call the injected LLMProvider."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragspine.llm.chat import Message
from ragspine.llm.ports import Role
from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.run.nodes import render_jinja
from ragspine.workflows.shapes import as_map, get_in, maps

if TYPE_CHECKING:
    from ragspine.workflows.run.nodes import NodeCall, Outcome

_ROLES = {"system": Role.SYSTEM, "user": Role.USER, "assistant": Role.ASSISTANT}
DEFAULT_MAX_TOKENS = 800


def _context_text(value: Any) -> str:
    """Knowledge-retrieval results joined as Dify fills ``{{#context#}}``; other values as text."""
    if isinstance(value, list):
        parts = [str(item.get("content", "")) if isinstance(item, Mapping) else str(item) for item in value]
        return "\n".join(p for p in parts if p)
    return "" if value is None else str(value)


def _render(call: NodeCall, item: Mapping[str, Any], context: str) -> str:
    if item.get("edition_type") == "jinja2":
        return render_jinja(str(item.get("jinja2_text", "")), call.bound())
    return call.pool.render(str(item.get("text", ""))).replace("{{#context#}}", context)


def build_messages(call: NodeCall) -> list[Message]:
    """Messages from ``prompt_template`` (chat list or completion object) plus the chat memory query."""
    data = call.step.config
    context_cfg = as_map(data.get("context"))
    context = ""
    if context_cfg.get("enabled") and context_cfg.get("variable_selector"):
        context = _context_text(call.pool.get(context_cfg["variable_selector"]))
    template = data.get("prompt_template")
    items = [template] if isinstance(template, Mapping) else maps(template)
    messages = [Message(_ROLES.get(str(t.get("role", "user")), Role.USER), _render(call, t, context)) for t in items]
    query_template = get_in(data, "memory", "query_prompt_template")
    if isinstance(query_template, str) and query_template:
        messages.append(Message(Role.USER, call.pool.render(query_template)))
    if not any(m.content.strip() for m in messages):
        raise WorkflowNodeFailedError("the llm prompt is empty", node_id=call.step.node_id)
    return messages


def run_llm(call: NodeCall) -> Outcome:
    """Call the provider; output ``text`` as Dify does."""
    provider = call.llm
    assert provider is not None  # checked before the run starts
    params = as_map(get_in(call.step.config, "model", "completion_params"))
    temperature = params.get("temperature", 0.0)
    max_tokens = params.get("max_tokens", DEFAULT_MAX_TOKENS)
    completion = provider.complete(
        build_messages(call),
        max_tokens=max_tokens if isinstance(max_tokens, int) and max_tokens > 0 else DEFAULT_MAX_TOKENS,
        temperature=float(temperature) if isinstance(temperature, int | float) else 0.0)
    return {"text": completion.text, "model": completion.model, "usage": {}, "finish_reason": "stop"}, "source"
