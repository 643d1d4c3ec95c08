"""The handler registry: node type -> handler, the one table the executor reads.

Handlers live in :mod:`nodes` (the built-in ones) and in one module per node type that needs
a port or a policy (llm, http-request, code); none of them imports the executor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ragspine.workflows.run.code_node import run_code
from ragspine.workflows.run.http_node import run_http
from ragspine.workflows.run.llm_node import run_llm
from ragspine.workflows.run.nodes import (
    SOURCE,
    NodeCall,
    Outcome,
    run_answer,
    run_end,
    run_if_else,
    run_knowledge,
    run_start,
    run_template,
)


def _http(call: NodeCall) -> Outcome:
    return run_http(call), SOURCE


def _code(call: NodeCall) -> Outcome:
    return run_code(call), SOURCE


HANDLERS: Mapping[str, Callable[[NodeCall], Outcome]] = {
    "start": run_start, "llm": run_llm, "knowledge-retrieval": run_knowledge, "template-transform": run_template,
    "if-else": run_if_else, "http-request": _http, "code": _code, "end": run_end, "answer": run_answer,
}
