"""Prompt assembly: the second, independent RESTRICTED exit, and the only place history goes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.errors import RagspineError
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.llm.extractive import build_user_message
from ragspine.llm.ports import Role
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from ragspine.llm import chat
    from ragspine.llm.chat import Message
    from ragspine.qa.evidence import Evidence
else:
    chat = LazyModule("ragspine.llm.chat")  # loaded by the first prompt built: a structured answer builds none

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
# The closing lines, before the form: the question again (a small model answers what it read last, and
# otherwise says the question back or answers another aspect of the nearest passage), what kind of
# answer it asks for, whose passages to answer from, and the length.
ANSWER_THIS = MappingProxyType({
    "zh": "请回答这个问题：{question}",
    "en": "Answer this question: {question}",
    "ja": "次の質問に答えてください：{question}",
})
# "The reason", not "every reason": asked for every reason (each item), a 1.5B model added items from
# other passages (Japan's local sourcing in a Hong Kong answer, store openings as a cause of Japan's
# margin); a cause its cited passage states and the answer leaves out is quoted instead (stated_causes).
ASK_REASON = MappingProxyType({
    "zh": "问题问的是原因：请写出资料中给出的原因或目的（“因为……”），不要复述问题。",
    "en": "The question asks why: give the reason or purpose the passages state (\"because …\"); "
          "do not repeat the question.",
    "ja": "質問は理由を聞いています。資料に書かれた理由や目的（「…ため」）を書き、質問を繰り返さないでください。",
})
ASK_CONTENT = MappingProxyType({
    "zh": "请写出资料中对此的具体说明（做了什么、怎样变化、包括什么），不要复述问题。",
    "en": "Give what the passages say in answer (what was done, how it changed, what it covers); "
          "do not repeat the question.",
    "ja": "資料に書かれた具体的な内容（何をしたか、どう変わったか、何を含むか）を書き、質問を繰り返さないでください。",
})
ONLY_ABOUT = MappingProxyType({
    "zh": "只依据讲到{subject}的资料回答。",
    "en": "Answer only from passages that speak of {subject}.",
    "ja": "{subject}について書かれた資料だけに基づいて回答してください。",
})
SUBJECT_SEPARATOR = MappingProxyType({"zh": "、", "en": ", ", "ja": "、"})
ONE_TO_THREE = MappingProxyType({
    "zh": "用一到三句话回答。",
    "en": "Answer in one to three sentences.",
    "ja": "一文から三文で回答してください。",
})
# A why-question in each language: the answer it wants is a cause, which a small model otherwise omits.
_WHY = MappingProxyType({
    "zh": LazyPattern(r"为什么|为何|什么原因|原因是"),
    "en": LazyPattern(r"\bwhy\b", re.IGNORECASE),
    "ja": LazyPattern(r"なぜ|どうして|何故|理由"),
})
# Asked once more when a reply came back in another language.
ANSWER_LANGUAGE_AGAIN = MappingProxyType({
    "zh": "你上一次没有用中文回答。请只用中文回答。",
    "en": "Your previous reply was not in English. Reply in English only.",
    "ja": "前回の回答は日本語ではありませんでした。日本語だけで回答してください。",
})
# Asked once more when a reply only said the question back: the reply, and what it left out (the reason
# for a why-question, else the content). Without it a 1.5B model's fallback was the question reworded.
ANSWER_RESTATED_AGAIN = MappingProxyType({
    "zh": "你上一次的回复（“{reply}”）只是复述了问题，没有给出{missing}。请写出资料中说明的{missing}。",
    "en": "Your previous reply (\"{reply}\") only repeated the question and gave no {missing}. "
          "Write the {missing} the passages state.",
    "ja": "前回の回答（「{reply}」）は質問を繰り返しただけで、{missing}がありませんでした。"
          "資料に書かれた{missing}を書いてください。",
})
# With it, the sentence of the passages asked from that is on the question's topic (qa/focus.py): a 1.5B
# model told only what was missing said the same words back.
ANSWER_FROM_SENTENCE = MappingProxyType({
    "zh": "请根据资料[{number}]的这句话回答：“{sentence}”",
    "en": "Answer from this sentence of passage [{number}]: \"{sentence}\"",
    "ja": "資料[{number}]のこの文に基づいて回答してください：「{sentence}」",
})
# Asked once more when a why-question's reply gave no cause: the cause sentence the passages state.
# Quoting it to the reader (stated_causes) shows the passage's words; this asks for the model's own.
ANSWER_WITH_CAUSE = MappingProxyType({
    "zh": "资料[{number}]给出了这个原因：“{sentence}”请用自己的话回答为什么。",
    "en": "Passage [{number}] gives this reason: \"{sentence}\" Answer why in your own words.",
    "ja": "資料[{number}]には次の理由が書かれています：「{sentence}」なぜなのかを自分の言葉で答えてください。",
})
# Asked once more when a reply copied a passage sentence written in another language: repeating only
# the language instruction brought the same copy back, so the sentence and its language are named.
ANSWER_COPIED_AGAIN = MappingProxyType({
    "zh": "资料[{number}]的这句话是用{written}写的：“{sentence}”请用中文、用自己的话说出它的内容。",
    "en": "This sentence of passage [{number}] is written in {written}: \"{sentence}\" Say its content in English, "
          "in your own words.",
    "ja": "資料[{number}]のこの文は{written}で書かれています：「{sentence}」その内容を日本語で、"
          "自分の言葉で書いてください。",
})
LANGUAGE_NAMES = MappingProxyType({
    "zh": MappingProxyType({"zh": "中文", "en": "英文", "ja": "日文"}),
    "en": MappingProxyType({"zh": "Chinese", "en": "English", "ja": "Japanese"}),
    "ja": MappingProxyType({"zh": "中国語", "en": "英語", "ja": "日本語"}),
})
MISSING_REASON = MappingProxyType({"zh": "原因或目的", "en": "reason or purpose", "ja": "理由や目的"})
MISSING_CONTENT = MappingProxyType({
    "zh": "具体内容（做了什么、怎样变化、包括什么）",
    "en": "content (what was done, how it changed, what it covers)",
    "ja": "具体的な内容（何をしたか、どう変わったか、何を含むか）",
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


def asks_why(question: str, lang: str) -> bool:
    """Whether ``question`` (in ``lang``) asks for a reason."""
    pattern = _WHY.get(lang)
    return pattern is not None and pattern.search(question) is not None


def closing_lines(question: str, lang: str, subject: Sequence[str] = ()) -> str:
    """The question restated, the kind of answer it asks for, whose passages to use, and the length."""
    lines = [ANSWER_THIS[lang].format(question=" ".join(question.split())),
             (ASK_REASON if asks_why(question, lang) else ASK_CONTENT)[lang]]
    if subject:
        lines.append(ONLY_ABOUT[lang].format(subject=SUBJECT_SEPARATOR[lang].join(subject)))
    lines.append(ONE_TO_THREE[lang])
    return "\n".join(lines)


def restated_again(question: str, reply: str, lang: str) -> str:
    """The line asking again after ``reply`` only said ``question`` back: what it left out, in ``lang``."""
    missing = (MISSING_REASON if asks_why(question, lang) else MISSING_CONTENT)[lang]
    return ANSWER_RESTATED_AGAIN[lang].format(reply=" ".join(reply.split()), missing=missing)


def assemble_prompt(question: str, evidence: Sequence[Evidence], *,
                    history: Sequence[Message] = (), system_prompt: str = SYSTEM_PROMPT,
                    lang: str | None = None, again: bool = False, structured: bool = False,
                    subject: Sequence[str] = (), restated: str | None = None,
                    shown: Sequence[int] = (), answer_from: tuple[int, str] | None = None,
                    cause: tuple[int, str] | None = None,
                    copied: tuple[int, str, str] | None = None) -> list[Message]:
    """Build the generation messages: system rules, prior turns, then question + snippet block.

    With ``lang``, the user message ends with the closing lines in that language (the question
    again, the reason asked for when it is a why-question, the ``subject`` the passages used must
    speak of, one to three sentences) and the answer-language instruction (``again`` adds that
    the previous reply was in another one; ``restated``, a previous reply that only said the question
    back, is quoted with what it left out); ``structured`` asks for the JSON form of
    ``qa/structured_reply.py`` instead of passage numbers in the text. ``shown`` (0-based) gives only
    those passages, in that order, each under the number it has among all of ``evidence``; ``answer_from``
    (a 0-based passage and one of its sentences) names where to answer from, after ``restated``; ``cause``
    (the same) names the reason the passages give, for a why-question's reply that gave none; ``copied``
    (a 0-based passage, the sentence a reply copied and the language it is written in) asks for its
    content in ``lang``.

    History is inserted here and nowhere else: it never changes screening, intent, the
    retrieval query or the evidence.

    Raises:
        RestrictedEvidenceError: an evidence item is RESTRICTED (whatever the retriever did).
    """
    restricted = [e.chunk_id for e in evidence if e.sensitivity >= Sensitivity.RESTRICTED]
    if restricted:
        raise RestrictedEvidenceError(f"refused to build a prompt with {len(restricted)} RESTRICTED item(s)")
    order = list(shown) or list(range(len(evidence)))
    user = build_user_message(question, [(evidence[i].context or evidence[i].text, evidence[i].doc,
                                          evidence[i].locator) for i in order], [i + 1 for i in order])
    if lang is not None and lang in ANSWER_LANGUAGE:
        instruction = (STRUCTURED_ANSWER if structured else ANSWER_LANGUAGE)[lang]
        missing = f"{restated_again(question, restated, lang)}\n" if restated else ""
        if answer_from is not None:
            number, sentence = answer_from
            missing += f"{ANSWER_FROM_SENTENCE[lang].format(number=number + 1, sentence=sentence)}\n"
        if cause is not None:
            missing += f"{ANSWER_WITH_CAUSE[lang].format(number=cause[0] + 1, sentence=cause[1])}\n"
        if copied is not None:
            number, sentence, written = copied
            written = LANGUAGE_NAMES[lang].get(written, written)
            missing += f"{ANSWER_COPIED_AGAIN[lang].format(number=number + 1, sentence=sentence, written=written)}\n"
        user = (f"{user}\n\n{closing_lines(question, lang, subject)}\n{missing}"
                f"{ANSWER_LANGUAGE_AGAIN[lang] if again else ''}{instruction}")
    turns = [m for m in history if m.role in (Role.USER, Role.ASSISTANT)]  # callers may not inject system text
    return [chat.Message(Role.SYSTEM, system_prompt), *turns, chat.Message(Role.USER, user)]
