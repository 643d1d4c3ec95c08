"""Prompt assembly: the second, independent RESTRICTED exit, and the only place history goes."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from ragspine.errors import RagspineError
from ragspine.llm.extractive import build_user_message
from ragspine.llm.ports import Message, Role
from ragspine.qa.ports import Evidence
from ragspine.sensitivity import Sensitivity

# The engine's wording, one per question language; a domain folder names its assistant in it or
# replaces it (domain.yaml). Passages are numbered [1], [2]... in the user message: the model cites
# those numbers and the engine renders them as （来源：文档 定位）.
SYSTEM_PROMPT_TEMPLATES = MappingProxyType({
    "zh": "你是{assistant}。只根据“参考资料”中的内容回答，不要使用常识补充企业内部信息；"
          "不要编造任何数字，也不要把数字归到资料没有说的年份或主体上；每句话后用资料编号（如[1]）标注出处。"
          "资料不足时直接回答“无法回答。”。请用中文回答。",
    "en": "You are {assistant}. Answer only from the numbered reference passages; do not add company facts "
          "from general knowledge; never invent a number, nor attribute one to a year or entity its passage "
          "does not give it; end each sentence with the number of its passage, e.g. [1]. If the passages do "
          "not say, answer exactly \"I cannot answer.\" Answer in English.",
    "ja": "あなたは{assistant}です。番号付きの参考資料の内容だけに基づいて回答してください。一般知識で社内情報を"
          "補わず、数値を作らず、資料にない年度や主体に数値を結びつけないでください。各文の末尾に資料番号（例：[1]）"
          "を付けてください。資料に記載がない場合は「回答できません。」とだけ答えてください。日本語で回答してください。",
})
# Said again in the user message, in the question's language, so a small model keeps it.
ANSWER_LANGUAGE = MappingProxyType({
    "zh": "请用中文回答，并在每句话后用资料编号（如[1]）标注出处。",
    "en": "Answer in English, and end each sentence with its passage number, e.g. [1].",
    "ja": "日本語で回答し、各文の末尾に資料番号（例：[1]）を付けてください。",
})
# In its place when the endpoint constrains the reply to JSON (qa/structured_reply.py): the form, and that
# the passage field is the sentence's citation.
STRUCTURED_ANSWER = MappingProxyType({
    "zh": '请用中文回答，只输出JSON：{"sentences": [{"text": "…", "passage": 1}]}。'
          "text 是回答中的一句话，只写该资料中的内容；passage 是这句话所依据的资料编号。",
    "en": 'Answer in English, as JSON only: {"sentences": [{"text": "…", "passage": 1}]}. text is one sentence '
          "of the answer, saying only what its passage says; passage is the number of that passage.",
    "ja": '日本語で回答し、JSONだけを出力してください：{"sentences": [{"text": "…", "passage": 1}]}。'
          "text は回答の一文で、その資料の内容だけを書きます。passage はその文の根拠の資料番号です。",
})
# Asked once more when a reply came back in another language.
ANSWER_LANGUAGE_AGAIN = MappingProxyType({
    "zh": "你上一次没有用中文回答。请只用中文回答。",
    "en": "Your previous reply was not in English. Reply in English only.",
    "ja": "前回の回答は日本語ではありませんでした。日本語だけで回答してください。",
})
SYSTEM_PROMPT_TEMPLATE = SYSTEM_PROMPT_TEMPLATES["zh"]
SYSTEM_PROMPT = SYSTEM_PROMPT_TEMPLATE.format(assistant="企业知识助手")


def system_prompt_for(assistant: str, lang: str = "zh") -> str:
    """The engine's system prompt in ``lang`` (zh, en or ja) naming ``assistant`` (a domain's name for it)."""
    return SYSTEM_PROMPT_TEMPLATES.get(lang, SYSTEM_PROMPT_TEMPLATE).format(assistant=assistant)


class RestrictedEvidenceError(RagspineError):
    """A RESTRICTED item reached prompt assembly; the prompt is refused, not built."""

    code = "KNOWLEDGE_FORBIDDEN"
    http_status = 403


def assemble_prompt(question: str, evidence: Sequence[Evidence], *,
                    history: Sequence[Message] = (), system_prompt: str = SYSTEM_PROMPT,
                    lang: str | None = None, again: bool = False, structured: bool = False) -> list[Message]:
    """Build the generation messages: system rules, prior turns, then question + snippet block.

    With ``lang``, the user message ends with the answer-language instruction in that language
    (``again`` adds that the previous reply was in another one); ``structured`` asks for the
    JSON form of ``qa/structured_reply.py`` instead of passage numbers in the text.

    History is inserted here and nowhere else: it never changes screening, intent, the
    retrieval query or the evidence.

    Raises:
        RestrictedEvidenceError: an evidence item is RESTRICTED (whatever the retriever did).
    """
    restricted = [e.chunk_id for e in evidence if e.sensitivity >= Sensitivity.RESTRICTED]
    if restricted:
        raise RestrictedEvidenceError(f"refused to build a prompt with {len(restricted)} RESTRICTED item(s)")
    user = build_user_message(question, [(e.context or e.text, e.doc, e.locator) for e in evidence])
    if lang is not None and lang in ANSWER_LANGUAGE:
        instruction = (STRUCTURED_ANSWER if structured else ANSWER_LANGUAGE)[lang]
        user = f"{user}\n\n{ANSWER_LANGUAGE_AGAIN[lang] if again else ''}{instruction}"
    turns = [m for m in history if m.role in (Role.USER, Role.ASSISTANT)]  # callers may not inject system text
    return [Message(Role.SYSTEM, system_prompt), *turns, Message(Role.USER, user)]
