"""The built-in node handlers (start, template, if-else, end, answer, knowledge) and what every handler reads.

A handler gets a :class:`NodeCall`: the step, the variable pool, the run inputs and the ports
and policies its node type needs. It never sees the executor; :mod:`handlers` maps node types
to handlers and the executor reads that table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule
from ragspine.workflows.dsl import SYSTEM, render_references
from ragspine.workflows.errors import WorkflowInputError
from ragspine.workflows.run.conditions import choose_branch, normalized_cases
from ragspine.workflows.shapes import as_list, get_in, maps

if TYPE_CHECKING:
    from ragspine.llm.ports import LLMProvider
    from ragspine.workflows.run import template_child
    from ragspine.workflows.run.code_node import CodeLimits
    from ragspine.workflows.run.compile import Step
    from ragspine.workflows.run.http_node import HttpPolicy
    from ragspine.workflows.run.ports import KnowledgeRetriever
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    template_child = LazyModule("ragspine.workflows.run.template_child")

# Dify caps template-transform output at 80,000 characters by default.
MAX_TEMPLATE_OUTPUT = 80_000
# Loop iterations, calls and filters one render may spend, and its wall-clock limit.
TEMPLATE_MAX_STEPS = 100_000
TEMPLATE_TIMEOUT_SECONDS = 2.0
SOURCE = "source"


class VariablePool:
    """Outputs of executed nodes plus system variables, addressed by selector."""

    def __init__(self, system: Mapping[str, Any]) -> None:
        self._values: dict[str, Mapping[str, Any]] = {SYSTEM: dict(system)}

    def set(self, node_id: str, outputs: Mapping[str, Any]) -> None:
        """Record a node's outputs."""
        self._values[node_id] = outputs

    def get(self, selector: tuple[str, ...] | list[str]) -> Any:
        """The value at ``selector`` (node, var, then keys into nested objects); None when absent."""
        if not isinstance(selector, list | tuple) or not selector:
            return None
        if len(selector) >= 2 and str(selector[1]).startswith("sys."):
            selector = (SYSTEM, str(selector[1])[4:], *selector[2:])
        value: Any = self._values.get(str(selector[0]))
        for key in list(selector)[1:]:
            value = value.get(str(key)) if isinstance(value, Mapping) else None
        return value

    def render(self, text: str) -> str:
        """``text`` with every ``{{#node.var#}}`` replaced by its value."""
        return render_references(text, self.get)


@dataclass(frozen=True, slots=True)
class NodeCall:
    """Everything a handler may read: the step, the pool, the run inputs, and the ports and policies.

    ``llm``, ``retriever`` and ``code`` are None when the run has none; the executor refuses a
    plan whose node types need a missing one before the first node runs.
    """

    step: Step
    pool: VariablePool
    inputs: Mapping[str, Any]
    http: HttpPolicy
    llm: LLMProvider | None = None
    retriever: KnowledgeRetriever | None = None
    code: CodeLimits | None = None

    def bound(self) -> dict[str, Any]:
        """Binding name -> current value (literal or pool lookup)."""
        return {b.name: (self.pool.get(b.selector) if b.selector else b.literal) for b in self.step.bindings}


Outcome = tuple[dict[str, Any], str]


def _start_value(var: Mapping[str, Any], value: Any) -> Any:
    name, kind = var.get("variable"), var.get("type", "text-input")
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise WorkflowInputError(f"input {name!r} must be a number")
        try:
            return value if isinstance(value, int | float) else float(value)
        except ValueError as exc:
            raise WorkflowInputError(f"input {name!r} must be a number") from exc
    if kind in ("file", "file-list"):
        raise WorkflowInputError(f"input {name!r} is a file; file inputs are not supported")
    if not isinstance(value, str):
        raise WorkflowInputError(f"input {name!r} must be a string")
    limit = var.get("max_length")
    if isinstance(limit, int) and len(value) > limit:
        raise WorkflowInputError(f"input {name!r} is longer than {limit} characters")
    options = as_list(var.get("options"))
    if kind == "select" and options and value not in options:
        raise WorkflowInputError(f"input {name!r} must be one of {options}")
    return value


def run_start(call: NodeCall) -> Outcome:
    """Validate run inputs against the declared variables and expose them."""
    produced: dict[str, Any] = {}
    for var in maps(call.step.config.get("variables")):
        name = str(var.get("variable"))
        value = call.inputs.get(name)
        if value is None or value == "":
            if var.get("required"):
                raise WorkflowInputError(f"input {name!r} is required")
            produced[name] = None
            continue
        produced[name] = _start_value(var, value)
    return produced, SOURCE


def render_jinja(template: str, variables: Mapping[str, Any]) -> str:
    """Render a Jinja2 template in a limited child process, the step budget first (``template_child``).

    Raises:
        WorkflowNodeFailedError: syntax error, sandbox violation, a budget or limit spent, or any error the template
            raised; the message starts with ``template error``.
    """
    limits = template_child.TemplateLimits(max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT,
                                           timeout_seconds=TEMPLATE_TIMEOUT_SECONDS)
    return template_child.render_in_child(template, variables, limits)


def run_template(call: NodeCall) -> Outcome:
    """Render the node's Jinja2 template with its bound variables."""
    return {"output": render_jinja(str(call.step.config.get("template", "")), call.bound())}, SOURCE


def run_if_else(call: NodeCall) -> Outcome:
    """Pick the first case that holds; its case_id (or 'false') selects the outgoing edges."""

    def value_of(condition: Mapping[str, Any]) -> tuple[Any, Any]:
        expected = condition.get("value")
        if isinstance(expected, str):
            expected = call.pool.render(expected)
        return call.pool.get(condition.get("variable_selector") or ()), expected

    handle = choose_branch(normalized_cases(call.step.config), value_of)
    return {"selected_case_id": handle, "result": handle != "false"}, handle


def run_end(call: NodeCall) -> Outcome:
    """Collect the declared outputs."""
    produced = {str(o.get("variable")): call.pool.get(o.get("value_selector") or ())
                for o in maps(call.step.config.get("outputs"))}
    return produced, SOURCE


def run_answer(call: NodeCall) -> Outcome:
    """Render the answer text."""
    return {"answer": call.pool.render(str(call.step.config.get("answer", "")))}, SOURCE


def run_knowledge(call: NodeCall) -> Outcome:
    """Ask the injected retriever with the bound query."""
    retriever = call.retriever
    assert retriever is not None  # checked before the run starts
    query = call.pool.get(call.step.config.get("query_variable_selector") or ())
    top_k = get_in(call.step.config, "multiple_retrieval_config", "top_k")
    top_k = top_k if isinstance(top_k, int) and not isinstance(top_k, bool) and top_k > 0 else 4
    return {"result": retriever.retrieve("" if query is None else str(query), top_k=top_k)}, SOURCE
