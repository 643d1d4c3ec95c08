"""What the workflow surfaces need, wired once by the composition root (``Services.workflows``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ragspine.workflows.run import ExecutionGate, HttpPolicy, KnowledgeRetriever, RunCapacity, WorkflowExecutor
from ragspine.workflows.scaffold import ScaffoldOptions
from ragspine.workflows.surfaces.body_slots import BodySlots
from ragspine.workflows.surfaces.parse_budget import ParseBudget
from ragspine.workflows.surfaces.ports import RunStore, WorkflowStore
from ragspine.workflows.surfaces.rate_limit import TokenBucketLimiter
from ragspine.workflows.surfaces.registry import WorkflowRegistry

if TYPE_CHECKING:
    from ragspine.llm.ports import LLMProvider
    from ragspine.workflows.run import CodeLimits, RunEvent, WorkflowExecutor

DEFAULT_WEBHOOK_METHODS = frozenset({"GET", "POST"})


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class WebhookPolicy:
    """Ingress controls of the unauthenticated webhooks: payload cap, method allowlist, and how long a body may take."""

    max_bytes: int = 64 * 1024
    methods: frozenset[str] = DEFAULT_WEBHOOK_METHODS
    body_timeout_s: float = 30.0  # a body still arriving after this is abandoned (408), so it holds its slot no longer


@dataclass(frozen=True)
class WorkflowComponents:
    """Store, gate, executor ports and webhook controls of the workflow surfaces.

    ``code`` is None unless code nodes were enabled; ``llm`` None disables llm nodes; ``runs``
    None records no run (the run detail and executions routes then find none). The limiter,
    ``capacity`` (runs in flight, and the threads they run on), ``body_slots`` (webhook bodies
    being read) and ``parse_budget`` (large webhook bodies parsed and running) live as long as
    this object, i.e. one per process.
    """

    store: WorkflowStore
    runs: RunStore | None = None
    gate: ExecutionGate = field(default_factory=ExecutionGate)
    scaffold: ScaffoldOptions = field(default_factory=ScaffoldOptions)
    webhook: WebhookPolicy = field(default_factory=WebhookPolicy)
    limiter: TokenBucketLimiter = field(default_factory=lambda: TokenBucketLimiter(rate_per_minute=60, burst=10))
    capacity: RunCapacity = field(default_factory=RunCapacity)
    body_slots: BodySlots = field(default_factory=BodySlots)  # webhook bodies read at once
    parse_budget: ParseBudget = field(default_factory=ParseBudget)  # large webhook bodies parsed and run at once
    llm: LLMProvider | None = None
    http: HttpPolicy = field(default_factory=HttpPolicy)
    code: CodeLimits | None = None
    retriever: KnowledgeRetriever | None = None
    clock: Callable[[], datetime] = _utc_now
    # Keyed into every API key digest (a Secrets Manager secret on AWS); empty: salted SHA-256 alone.
    key_pepper: bytes = b""

    def registry(self) -> WorkflowRegistry:
        """The CRUD service over the store."""
        return WorkflowRegistry(self.store, dsl_version=self.scaffold.dsl_version, clock=self.clock)

    def executor(self, on_event: Callable[[RunEvent], None] | None = None) -> WorkflowExecutor:
        """A fresh executor over the injected ports (llm, our retriever, egress and code limits)."""
        return WorkflowExecutor(llm=self.llm, retriever=self.retriever, http=self.http, code=self.code,
                                on_event=on_event)
