"""The node subset shared by Dify and n8n, with condition operators in both spellings.

Mapping (Dify ``data.type`` -> n8n ``type``):

- start -> ``n8n-nodes-base.webhook`` (workflow mode; inputs arrive in ``body``) or
  ``@n8n/n8n-nodes-langchain.chatTrigger`` (advanced-chat; ``sys.query`` is ``chatInput``).
  ``n8n-nodes-base.manualTrigger`` is also read as start.
- llm -> ``@n8n/n8n-nodes-langchain.openAi`` (resource ``text``, operation ``message``): one node
  holds model and messages, so no LangChain sub-node wiring is needed. Output ``text`` is
  ``message.content``.
- http-request -> ``n8n-nodes-base.httpRequest`` v4.2 with full responses, so ``body``,
  ``statusCode`` and ``headers`` line up with Dify's outputs.
- if-else (one case) -> ``n8n-nodes-base.if`` v2; output 0 is the case, output 1 is else.
- code -> ``n8n-nodes-base.code`` v2; Dify's ``main`` is wrapped between marker comments so
  inputs and outputs survive the round trip.
- template-transform -> ``n8n-nodes-base.set`` v3.4 with one ``output`` assignment; an n8n Set
  with several assignments becomes a chain of template-transform nodes.
- end -> ``n8n-nodes-base.respondToWebhook`` (JSON body of the outputs) or ``n8n-nodes-base.noOp``;
  answer -> ``respondToWebhook`` with a text body.
"""

from __future__ import annotations

WEBHOOK = "n8n-nodes-base.webhook"
MANUAL_TRIGGER = "n8n-nodes-base.manualTrigger"
CHAT_TRIGGER = "@n8n/n8n-nodes-langchain.chatTrigger"
OPENAI = "@n8n/n8n-nodes-langchain.openAi"
HTTP_REQUEST = "n8n-nodes-base.httpRequest"
IF = "n8n-nodes-base.if"
CODE = "n8n-nodes-base.code"
SET = "n8n-nodes-base.set"
RESPOND = "n8n-nodes-base.respondToWebhook"
NO_OP = "n8n-nodes-base.noOp"
TRIGGERS = frozenset({WEBHOOK, MANUAL_TRIGGER, CHAT_TRIGGER})
PASS_THROUGH = frozenset({IF, NO_OP})
CODE_MARK = "ragspine:dify-code"
CODE_BEGIN = "ragspine:begin"
CODE_END = "ragspine:end"

# Dify comparison operator -> (n8n operand type, n8n operation).
TO_N8N_OPERATORS: dict[str, tuple[str, str]] = {
    "contains": ("string", "contains"), "not contains": ("string", "notContains"),
    "start with": ("string", "startsWith"), "end with": ("string", "endsWith"),
    "is": ("string", "equals"), "is not": ("string", "notEquals"),
    "empty": ("string", "empty"), "not empty": ("string", "notEmpty"),
    "=": ("number", "equals"), "≠": ("number", "notEquals"), ">": ("number", "gt"), "<": ("number", "lt"),
    "≥": ("number", "gte"), "≤": ("number", "lte"),
    "exists": ("string", "exists"), "not exists": ("string", "notExists"),
    "null": ("string", "notExists"), "not null": ("string", "exists"),
}
UNARY = frozenset({"empty", "notEmpty", "exists", "notExists", "true", "false"})
# (n8n operand type, operation) -> Dify operator; string operations also cover array/object.
FROM_N8N_OPERATORS: dict[tuple[str, str], str] = {
    ("string", "contains"): "contains", ("string", "notContains"): "not contains",
    ("string", "startsWith"): "start with", ("string", "endsWith"): "end with",
    ("string", "equals"): "is", ("string", "notEquals"): "is not",
    ("string", "empty"): "empty", ("string", "notEmpty"): "not empty",
    ("string", "exists"): "exists", ("string", "notExists"): "not exists",
    ("number", "equals"): "=", ("number", "notEquals"): "≠", ("number", "gt"): ">", ("number", "lt"): "<",
    ("number", "gte"): "≥", ("number", "lte"): "≤",
    ("number", "exists"): "exists", ("number", "notExists"): "not exists",
    ("number", "empty"): "empty", ("number", "notEmpty"): "not empty",
}
# n8n If v1 (``conditions.string[]`` etc.) operation names -> Dify operator.
LEGACY_OPERATORS: dict[str, str] = {
    "equal": "is", "notEqual": "is not", "contains": "contains", "notContains": "not contains",
    "startsWith": "start with", "endsWith": "end with", "isEmpty": "empty", "isNotEmpty": "not empty",
    "larger": ">", "smaller": "<", "largerEqual": "≥", "smallerEqual": "≤",
}
