"""Failures of the workflow surfaces (stored workflows, API keys, webhooks), each with a code and status.

The HTTP edge renders them in whichever format a router speaks (seed-003 envelope, Dify's
``{code, message, status}``, n8n's ``{message}``) by class, never by message text.
"""

from __future__ import annotations

from ragspine.errors import FieldError, InvalidInputError, NotFoundError, RagspineError


class WorkflowNotFoundError(NotFoundError):
    """No stored workflow has the requested id (or no active workflow listens on a webhook path)."""

    code = "WORKFLOW_NOT_FOUND"


class WorkflowRunNotFoundError(NotFoundError):
    """No recorded run has the requested id for this caller (unknown, pruned, or another app's run)."""

    code = "WORKFLOW_RUN_NOT_FOUND"


class WorkflowConflictError(RagspineError):
    """The write lost a race: the id exists, the ``versionId`` is stale, or a webhook path is taken."""

    code = "WORKFLOW_CONFLICT"
    http_status = 409


class WorkflowUnauthenticatedError(RagspineError):
    """The API key is missing, malformed, unknown, of the wrong kind or does not match its hash."""

    code = "WORKFLOW_UNAUTHENTICATED"
    http_status = 401

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


class WorkflowRequestError(InvalidInputError):
    """An n8n-style request body or query is invalid; ``path`` reads like ``request/body/active``."""

    code = "WORKFLOW_REQUEST_INVALID"
    http_status = 400

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path} {problem}", field_errors=(FieldError(path, problem),))
        self.path = path


class WorkflowRequestUnprocessableError(WorkflowRequestError):
    """A schema-valid n8n body breaks a rule JSON Schema cannot state (node names must be unique): 422."""

    code = "WORKFLOW_REQUEST_UNPROCESSABLE"
    http_status = 422


class WorkflowNotRunnableError(InvalidInputError):
    """A stored workflow has no Dify mapping the executor can run (its n8n nodes did not convert)."""

    code = "WORKFLOW_NOT_RUNNABLE"
    http_status = 422


class WebhookMethodNotAllowedError(RagspineError):
    """The webhook method is not on the configured allowlist."""

    code = "WORKFLOW_METHOD_NOT_ALLOWED"
    http_status = 405

    def __init__(self, message: str, *, allowed: tuple[str, ...]) -> None:
        super().__init__(message)
        self.allowed = allowed


class WebhookRateLimitedError(RagspineError):
    """The webhook path used up its token bucket; retry after ``retry_after`` seconds."""

    code = "WORKFLOW_RATE_LIMITED"
    http_status = 429
    retryable = True

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
