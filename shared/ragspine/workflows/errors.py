"""Workflow failures: one exception per kind, each with a stable code and HTTP status."""

from __future__ import annotations

from ragspine.errors import FieldError, InvalidInputError, PayloadTooLargeError, RagspineError


class WorkflowParseError(InvalidInputError):
    """JSON, YAML or TOML text could not be parsed; ``line``/``column`` are 1-based."""

    code = "WORKFLOW_PARSE_ERROR"
    http_status = 400

    def __init__(self, message: str, *, fmt: str, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}" if line is not None else "unknown position"
        super().__init__(f"{fmt} parse error at {where}: {message}",
                         field_errors=(FieldError(f"{line}:{column}" if line is not None else "body", message),))
        self.fmt = fmt
        self.line = line
        self.column = column


class WorkflowTooLargeError(PayloadTooLargeError):
    """The workflow text exceeds the size (or YAML alias) budget."""

    code = "WORKFLOW_TOO_LARGE"


class WorkflowInvalidError(InvalidInputError):
    """The document parsed but has the wrong shape; ``pointer`` is an RFC 6901 JSON pointer."""

    code = "WORKFLOW_INVALID"
    http_status = 422

    def __init__(self, message: str, *, pointer: str = "") -> None:
        super().__init__(f"{message} (at {pointer or '/'})", field_errors=(FieldError(pointer or "/", message),))
        self.pointer = pointer


class WorkflowCycleError(WorkflowInvalidError):
    """The graph has a cycle outside a loop or iteration container, so it has no execution order."""

    code = "WORKFLOW_CYCLE"


class WorkflowNodeUnsupportedError(InvalidInputError):
    """A node type cannot be converted or executed by this engine."""

    code = "WORKFLOW_NODE_UNSUPPORTED"
    http_status = 422

    def __init__(self, message: str, *, node_ids: tuple[str, ...] = ()) -> None:
        super().__init__(message, field_errors=tuple(FieldError(n, "unsupported node") for n in node_ids))
        self.node_ids = node_ids


class WorkflowInputError(InvalidInputError):
    """Run inputs do not match the start node's declared variables."""

    code = "WORKFLOW_INPUT_INVALID"
    http_status = 400


class WorkflowRunDisabledError(RagspineError):
    """Execution is switched off on this server (RAGSPINE_DIFY_RUN_ENABLED is false)."""

    code = "WORKFLOW_RUN_DISABLED"
    http_status = 403


class WorkflowEgressDeniedError(RagspineError):
    """An http-request node targeted a host outside the allowlist or a private/metadata address."""

    code = "WORKFLOW_EGRESS_DENIED"
    http_status = 403


class WorkflowNodeFailedError(RagspineError):
    """A node failed while running (template error, code error, time or memory limit, HTTP failure)."""

    code = "WORKFLOW_NODE_FAILED"
    http_status = 500

    def __init__(self, message: str, *, node_id: str = "") -> None:
        super().__init__(message, field_errors=(FieldError(node_id, message),) if node_id else ())
        self.node_id = node_id


class WorkflowNodeBusyError(WorkflowNodeFailedError):
    """Every slot for a template or code child stayed taken while the node waited: retry later."""

    code = "WORKFLOW_NODE_BUSY"
    http_status = 503


class WorkflowCodeIsolationError(WorkflowNodeFailedError):
    """The code node's isolation is required but this host cannot provide it, so the code is not run."""

    code = "WORKFLOW_CODE_ISOLATION_UNAVAILABLE"
    http_status = 503


class _RunRefusedError(RagspineError):
    """A run that could not start now; the caller may send it again after ``retry_after`` seconds."""

    retryable = True

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WorkflowRunLimitError(_RunRefusedError):
    """The caller's key already has as many runs in flight as one key may have."""

    code = "WORKFLOW_RUN_LIMITED"
    http_status = 429


class WorkflowRunsBusyError(_RunRefusedError):
    """The process already has as many workflow runs in flight as it admits."""

    code = "WORKFLOW_RUNS_BUSY"
    http_status = 503


class WebhookBodyTimeoutError(RagspineError):
    """A webhook body did not arrive within its deadline; the read was abandoned and its slot given back."""

    code = "WORKFLOW_WEBHOOK_BODY_TIMEOUT"
    http_status = 408
    retryable = True


class WebhookBodyTooSlowError(WebhookBodyTimeoutError):
    """A webhook body arrived slower than the minimum rate while another caller needed its slot; the read was
    abandoned and the slot given to that caller."""


class WebhookBodiesLimitError(_RunRefusedError):
    """The webhook path or the client already holds its share of the body-reading slots; this body was not read."""

    code = "WORKFLOW_WEBHOOK_LIMITED"
    http_status = 429


class WebhookBodiesBusyError(_RunRefusedError):
    """The process already reads as many webhook bodies at once as it admits (this body was not read), or parses
    as many large ones as its budget holds (this one was not parsed in time)."""

    code = "WORKFLOW_WEBHOOK_BUSY"
    http_status = 503
