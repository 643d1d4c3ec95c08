"""Prompt assembly: the second, independent RESTRICTED exit, and the only place history goes."""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.errors import RagspineError
from ragspine.llm.extractive import build_user_message
from ragspine.llm.ports import Message, Role
from ragspine.qa.ports import Evidence
from ragspine.sensitivity import Sensitivity

# The engine's wording; a domain folder names its assistant in it or replaces it (domain.yaml).
SYSTEM_PROMPT_TEMPLATE = (
    "你是{assistant}。只根据“参考资料”中的内容回答，不要使用常识补充企业内部信息；"
    "不要编造任何数字；每句话后用（来源：文档 定位）标注出处。资料不足时直接说明无法回答。"
)
SYSTEM_PROMPT = SYSTEM_PROMPT_TEMPLATE.format(assistant="企业知识助手")


def system_prompt_for(assistant: str) -> str:
    """The engine's system prompt naming ``assistant`` (a domain's ``assistant`` name)."""
    return SYSTEM_PROMPT_TEMPLATE.format(assistant=assistant)


class RestrictedEvidenceError(RagspineError):
    """A RESTRICTED item reached prompt assembly; the prompt is refused, not built."""

    code = "KNOWLEDGE_FORBIDDEN"
    http_status = 403


def assemble_prompt(question: str, evidence: Sequence[Evidence], *,
                    history: Sequence[Message] = (), system_prompt: str = SYSTEM_PROMPT) -> list[Message]:
    """Build the generation messages: system rules, prior turns, then question + snippet block.

    History is inserted here and nowhere else: it never changes screening, intent, the
    retrieval query or the evidence.

    Raises:
        RestrictedEvidenceError: an evidence item is RESTRICTED (whatever the retriever did).
    """
    restricted = [e.chunk_id for e in evidence if e.sensitivity >= Sensitivity.RESTRICTED]
    if restricted:
        raise RestrictedEvidenceError(f"refused to build a prompt with {len(restricted)} RESTRICTED item(s)")
    user = build_user_message(question, [(e.context or e.text, e.doc, e.locator) for e in evidence])
    turns = [m for m in history if m.role in (Role.USER, Role.ASSISTANT)]  # callers may not inject system text
    return [Message(Role.SYSTEM, system_prompt), *turns, Message(Role.USER, user)]
