"""Evaluate a chat model on the narrative channel: what became of each why-question's answer.

Each question goes through ``answer_question`` as a user's would, with the model under test as
the LLM. Per question it records whether the model's own cited text was kept, rejected (with the
unsupported values), withheld as not answering the question (restated, or another entity),
replaced by the passages after a timeout or an error, or declined; whether
the reply kept the question's language; whether a cited passage is one of the question's gold
passages; whether the final answer holds a number no passage states; and whether a RESTRICTED
document shows up in it. The JSON report keeps the model's own replies too, so that a withheld
answer can be read for what it said.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from ragspine.llm.chat import Completion, Message
from ragspine.llm.ports import LLMProvider, StructuredLLMProvider
from ragspine.qa.answer import COMPOSITE_SEPARATOR, QAComponents, answer_question
from ragspine.qa.evidence import Evidence
from ragspine.qa.ports import NarrativeRetriever
from ragspine.qa.provenance import check_provenance
from ragspine.qa.result import AnswerResult, NarrativeKind
from ragspine.sensitivity import Sensitivity

QUESTIONS_FILE = "narrative_eval.yaml"


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    """A question, its language, and the passages that answer it (none for a RESTRICTED-only one)."""

    id: str
    lang: str
    question: str
    gold: tuple[tuple[str, str], ...] = ()
    restricted_only: bool = False


@dataclass(frozen=True, slots=True)
class EvalRow:
    """What happened to one question."""

    id: str
    lang: str
    route: str
    narrative_status: str | None
    kind: str | None
    unsupported: tuple[str, ...]
    language_kept: bool | None
    asked_again: bool
    structured_output: bool | None  # the endpoint replied with the requested JSON (None: not requested)
    cites_gold: bool | None
    invented_in_answer: tuple[str, ...]
    restricted_leak: bool
    seconds: float
    answer: str = ""  # the narrative part as the user got it (the JSON report only)
    model_replies: tuple[str, ...] = ()  # the model's own text for this question, as it came (JSON report only)
    asked_for_answer: bool = False  # asked once more after a reply that only said the question back


@dataclass(frozen=True, slots=True)
class EvalReport:
    """The rows and their counts."""

    rows: tuple[EvalRow, ...]

    def summary(self) -> dict[str, Any]:
        """Counts over the answerable questions, plus leaks over every question."""
        answerable = [r for r in self.rows if r.cites_gold is not None]
        kinds = [r.kind for r in answerable]
        replied = [r for r in answerable if r.language_kept is not None]
        return {
            "questions": len(self.rows),
            "answerable": len(answerable),
            "answered_by_model": kinds.count(NarrativeKind.MODEL_ANSWER.value),
            "rejected": kinds.count(NarrativeKind.PROVENANCE_REJECTED.value),
            "rejected_values": {r.id: list(r.unsupported) for r in answerable if r.unsupported},
            "off_question": kinds.count(NarrativeKind.OFF_QUESTION.value),
            "unsupported_subject": kinds.count(NarrativeKind.UNSUPPORTED_SUBJECT.value),
            "unsupported_sentence": kinds.count(NarrativeKind.UNSUPPORTED_SENTENCE.value),
            "fell_back": sum(k in _FALLBACKS for k in kinds),
            "timed_out": kinds.count(NarrativeKind.MODEL_TIMEOUT.value),
            "model_errors": kinds.count(NarrativeKind.MODEL_ERROR.value),
            "declined": kinds.count(NarrativeKind.MODEL_DECLINED.value),
            "not_narrative": sum(k is None for k in kinds),
            "language_kept": sum(bool(r.language_kept) for r in replied),
            "language_checked": len(replied),
            "asked_again": sum(r.asked_again for r in answerable),
            "asked_for_answer": sum(r.asked_for_answer for r in answerable),
            "structured_requested": sum(r.structured_output is not None for r in self.rows),
            "structured_honoured": sum(bool(r.structured_output) for r in self.rows),
            "citations_right": sum(bool(r.cites_gold) for r in answerable
                                   if r.kind == NarrativeKind.MODEL_ANSWER.value),
            "invented_numbers": sum(bool(r.invented_in_answer) for r in self.rows),
            "restricted_leaks": sum(r.restricted_leak for r in self.rows),
            "restricted_only": len(self.rows) - len(answerable),
            "restricted_only_answered": sum(r.kind == NarrativeKind.MODEL_ANSWER.value for r in self.rows
                                            if r.cites_gold is None),
            "mean_seconds": round(sum(r.seconds for r in self.rows) / len(self.rows), 2) if self.rows else 0.0,
        }

    def to_dict(self) -> dict[str, Any]:
        """The summary and every row, ready for JSON."""
        return {"summary": self.summary(), "rows": [asdict(r) for r in self.rows]}


_FALLBACKS = frozenset({NarrativeKind.PROVENANCE_REJECTED.value, NarrativeKind.OFF_QUESTION.value,
                        NarrativeKind.UNSUPPORTED_SUBJECT.value, NarrativeKind.UNSUPPORTED_SENTENCE.value,
                        NarrativeKind.MODEL_TIMEOUT.value, NarrativeKind.MODEL_ERROR.value})


class RecordingRetriever:
    """The configured retriever, keeping the passages of its last call (to check the final answer against)."""

    def __init__(self, inner: NarrativeRetriever) -> None:
        self.inner = inner
        self.last: list[Evidence] = []

    def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
        self.last = list(self.inner.retrieve(query, top_k=top_k, max_sensitivity=max_sensitivity))
        return self.last


class RecordingLLM:
    """The model under test, keeping each reply's text (a withheld answer is read by what the model said)."""

    def __init__(self, inner: LLMProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.replies: list[str] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """The inner model's reply, recorded."""
        return self._kept(self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature))

    def _kept(self, completion: Completion) -> Completion:
        self.replies.append(completion.text)
        return completion


class RecordingStructuredLLM(RecordingLLM):
    """``RecordingLLM`` for a model asked for JSON: the narrative channel must still see it as one."""

    def __init__(self, inner: StructuredLLMProvider) -> None:
        super().__init__(inner)
        self.structured = inner
        self.structured_output = inner.structured_output

    def complete_json(self, messages: Sequence[Message], schema: Mapping[str, Any], *, name: str,
                      max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """The inner model's JSON reply, recorded."""
        return self._kept(self.structured.complete_json(messages, schema, name=name, max_tokens=max_tokens,
                                                        temperature=temperature))


def recording(llm: LLMProvider) -> RecordingLLM:
    """``llm`` wrapped to record its replies, keeping its structured-output face when it has one."""
    return RecordingStructuredLLM(llm) if isinstance(llm, StructuredLLMProvider) else RecordingLLM(llm)


def load_questions(path: Path) -> list[EvalQuestion]:
    """Read ``questions: [{id, lang, question, gold: [{doc, locator}], restricted_only}]`` from YAML."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [EvalQuestion(str(q["id"]), str(q["lang"]), str(q["question"]),
                         tuple((str(g["doc"]), str(g["locator"])) for g in q.get("gold") or ()),
                         bool(q.get("restricted_only", False)))
            for q in raw.get("questions", [])]


def evaluate(qa: QAComponents, questions: Iterable[EvalQuestion], *, restricted_docs: Sequence[str]) -> EvalReport:
    """Ask every question through ``qa`` and record what became of it."""
    if qa.retriever is None:
        raise ValueError("no narrative index is configured: load the documents first (ragspine load-samples)")
    retriever = RecordingRetriever(qa.retriever)
    model = recording(qa.llm)
    wired = replace(qa, retriever=retriever, llm=model)
    rows = []
    for item in questions:
        retriever.last, model.replies = [], []
        started = time.perf_counter()
        result = answer_question(item.question, qa=wired)
        row = _row(item, result, retriever.last, restricted_docs, time.perf_counter() - started)
        rows.append(replace(row, model_replies=tuple(model.replies)))
    return EvalReport(tuple(rows))


def _row(item: EvalQuestion, result: AnswerResult, evidence: Sequence[Evidence], restricted_docs: Sequence[str],
         seconds: float) -> EvalRow:
    detail = result.narrative_detail
    narrative = result.answer.split(COMPOSITE_SEPARATOR, 1)[-1]
    if detail is not None and detail.kind.value in _FALLBACKS:
        narrative = narrative.split("\n", 1)[-1]  # the engine's notice (it names the timeout) is not the answer
    invented: tuple[str, ...] = ()
    if detail is not None:
        invented = check_provenance(narrative, evidence_texts=[e.context or e.text for e in evidence],
                                    passages=len(evidence)).unsupported
    cited = {(s["doc"], s["locator"]) for s in result.sources}
    leak = any(doc in result.answer or any(s["doc"] == doc for s in result.sources) for doc in restricted_docs)
    leak = leak or any(e.sensitivity >= Sensitivity.RESTRICTED for e in evidence)
    return EvalRow(
        id=item.id, lang=item.lang, route=result.route.value,
        narrative_status=result.narrative_status.value if result.narrative_status else None,
        kind=detail.kind.value if detail else None, unsupported=detail.unsupported if detail else (),
        language_kept=detail.language_kept if detail else None, asked_again=bool(detail and detail.asked_again),
        structured_output=detail.structured_output if detail else None,
        asked_for_answer=bool(detail and detail.asked_for_answer),
        cites_gold=None if item.restricted_only else bool(cited & set(item.gold)),
        invented_in_answer=invented, restricted_leak=leak, seconds=round(seconds, 2),
        answer=result.answer.split(COMPOSITE_SEPARATOR, 1)[-1])


def format_report(report: EvalReport) -> str:
    """The summary as aligned lines, then one line per question."""
    s = report.summary()
    n = s["answerable"]
    lines = [
        f"answered by the model  {s['answered_by_model']}/{n}",
        f"rejected               {s['rejected']}/{n}  {s['rejected_values'] or ''}".rstrip(),
        f"off the question       {s['off_question']}/{n}  (restated it, or another entity; "
        f"asked again after a restatement {s['asked_for_answer']})",
        f"subject not cited      {s['unsupported_subject']}/{n}  (no cited passage names what was asked)",
        f"sentence unsupported   {s['unsupported_sentence']}/{n}  (no passage says one of its sentences)",
        f"fell back to passages  {s['fell_back']}/{n}  (timed out {s['timed_out']}, errors {s['model_errors']})",
        f"model declined         {s['declined']}/{n}",
        f"language kept          {s['language_kept']}/{s['language_checked']}  (asked again {s['asked_again']})",
        f"citations right        {s['citations_right']}/{s['answered_by_model']}  (a gold passage cited)",
        *([f"structured replies     {s['structured_honoured']}/{s['structured_requested']}  (the JSON asked for)"]
          if s["structured_requested"] else []),
        f"invented numbers       {s['invented_numbers']}",
        f"RESTRICTED leaks       {s['restricted_leaks']}",
        *([f"RESTRICTED-only        {s['restricted_only_answered']}/{s['restricted_only']} answered by the model"]
          if s["restricted_only"] else []),
        f"mean seconds           {s['mean_seconds']}",
        "",
    ]
    for r in report.rows:
        lines.append(f"{r.id:<7} {r.route:<10} {r.kind or '-':<20} lang={_flag(r.language_kept)} "
                     f"gold={_flag(r.cites_gold)} {r.seconds:>6.1f}s {' '.join(r.unsupported)}".rstrip())
    return "\n".join(lines)


def _flag(value: bool | None) -> str:
    return "-" if value is None else "yes" if value else "no"
