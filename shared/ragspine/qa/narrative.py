"""The narrative channel: retrieve cited passages, generate from them, enforce citations.

It degrades honestly: with no retriever, a failing one, or no authorised hits it says so and
never asks the model to guess.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.ports import LLMProvider, Message
from ragspine.qa.language import Lang
from ragspine.qa.ports import Evidence, NarrativeRetriever
from ragspine.qa.prompt import SYSTEM_PROMPT, RestrictedEvidenceError, assemble_prompt
from ragspine.qa.provenance import check_provenance
from ragspine.qa.result import AnswerStatus
from ragspine.sensitivity import Sensitivity

logger = logging.getLogger(__name__)

DEFAULT_TOP_K = 5
_TEXTS = {
    "unwired": {Lang.ZH: "未接入文档检索，无法回答这类原因分析问题。",
                Lang.EN: "Document search is not connected, so this question cannot be answered from documents.",
                Lang.JA: "文書検索が接続されていないため、この質問には文書から回答できません。"},
    "failed": {Lang.ZH: "文档检索暂时不可用，未能检索任何资料，请稍后重试。",
               Lang.EN: "Document search is unavailable right now, so nothing could be searched. "
                        "Please try again later.",
               Lang.JA: "文書検索が一時的に利用できないため、何も検索できませんでした。後でもう一度お試しください。"},
    "empty": {Lang.ZH: "未检索到与该问题相关、且您有权查看的资料，无法回答。",
              Lang.EN: "No relevant documents you are allowed to see were found, so this cannot be answered.",
              Lang.JA: "関連する閲覧可能な資料が見つからなかったため、回答できません。"},
    "rejected": {Lang.ZH: "生成的回答含有资料中没有的数字，已被拒绝。以下为检索到的原文：",
                 Lang.EN: "The generated answer contained numbers the documents do not support, so it was "
                          "rejected. The retrieved passages:",
                 Lang.JA: "生成された回答に資料にない数値が含まれていたため、破棄しました。検索された原文："},
}


@dataclass(frozen=True, slots=True)
class NarrativeOutcome:
    """The narrative answer, its sources, status, the evidence used and what was decided."""

    answer: str
    sources: tuple[dict[str, str], ...]
    status: AnswerStatus
    evidence: tuple[Evidence, ...] = ()
    decisions: tuple[str, ...] = ()


def run_narrative(question: str, *, retriever: NarrativeRetriever | None, llm: LLMProvider, lang: Lang,
                  history: Sequence[Message] = (), top_k: int = DEFAULT_TOP_K,
                  max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                  system_prompt: str = SYSTEM_PROMPT) -> NarrativeOutcome:
    """Answer a "why / what happened" question from cited passages only."""
    if retriever is None:
        return NarrativeOutcome(_TEXTS["unwired"][lang], (), AnswerStatus.RETRIEVAL_UNAVAILABLE,
                                decisions=("narrative:unwired",))
    try:
        evidence = retriever.retrieve(question, top_k=top_k, max_sensitivity=max_sensitivity)
    except ProviderUnavailableError as exc:
        logger.warning("narrative retrieval failed", extra={"error_code": exc.code})
        return NarrativeOutcome(_TEXTS["failed"][lang], (), AnswerStatus.RETRIEVAL_UNAVAILABLE,
                                decisions=("narrative:retrieval_failed",))
    decisions = [f"narrative:hits={len(evidence)}"]
    try:
        messages = assemble_prompt(question, evidence, history=history, system_prompt=system_prompt)
    except RestrictedEvidenceError:
        # Exit 2 held although exit 1 let something through: drop it, never prompt with it.
        decisions.append("narrative:restricted_blocked_at_prompt")
        evidence = [e for e in evidence if e.sensitivity < Sensitivity.RESTRICTED]
        messages = assemble_prompt(question, evidence, history=history, system_prompt=system_prompt)
    if not evidence:
        return NarrativeOutcome(_TEXTS["empty"][lang], (), AnswerStatus.NO_EVIDENCE, decisions=tuple(decisions))
    try:
        text = llm.complete(messages).text.strip()
    except ProviderUnavailableError as exc:
        logger.warning("generation failed; answering with the passages", extra={"error_code": exc.code})
        decisions.append("narrative:llm_failed")
        text = ""
    answer, verdict = _checked_answer(text, evidence, lang)
    decisions.append(verdict)
    sources = tuple(dict.fromkeys((e.doc, e.locator) for e in evidence))
    return NarrativeOutcome(answer, tuple({"doc": d, "locator": loc} for d, loc in sources),
                            AnswerStatus.ANSWERED, tuple(evidence), tuple(decisions))


def _checked_answer(text: str, evidence: Sequence[Evidence], lang: Lang) -> tuple[str, str]:
    """Enforce citations and provenance; fall back to quoting the passages verbatim."""
    if text and check_provenance(text, evidence_texts=[e.context or e.text for e in evidence]).ok:
        return append_missing_citations(text, evidence), "provenance:pass"
    quoted = "\n".join(f"- {e.text}（来源：{e.doc} {e.locator}）" for e in evidence)
    verdict = "provenance:rejected" if text else "narrative:quoted_passages"
    return f"{_TEXTS['rejected'][lang]}\n{quoted}" if text else quoted, verdict


def append_missing_citations(answer: str, evidence: Sequence[Evidence]) -> str:
    """Append a citation for every source document the model's answer does not name."""
    missing = [e for e in evidence if e.doc not in answer]
    seen: set[str] = set()
    extra = []
    for item in missing:
        if item.doc not in seen:
            seen.add(item.doc)
            extra.append(f"（来源：{item.doc} {item.locator}）")
    return answer + ("\n" + "".join(extra) if extra else "")
