"""The narrative channel: retrieve cited passages, generate from them, enforce citations.

It degrades honestly: with no retriever, a failing one, or no authorised hits it says so and
never asks the model to guess. It says what became of the model's reply (``NarrativeDetail``):
its own cited answer, a provenance rejection naming the unsupported values, a reply that does
not answer the question (it restates it, also when asked once more for what it left out, or
speaks of another entity), an answer whose cited
passages never name what was asked (the entity, project or year: "the documents do not say"),
an answer with a sentence that neither the passage it cites nor any one retrieved passage
says (a sentence its cited passage does not say but another does is re-cited to that one, and a
sentence about another entity than asked is dropped), a timeout or an error with a retry hint
(the passages quoted instead), or its own "the passages do not say".
Those outcomes other than the model's answer are logged at WARNING, which ``ragspine serve`` prints.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ragspine.citation import Source, passage_citation, source_dicts
from ragspine.errors import ProviderUnavailableError
from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.llm.chat import Message
from ragspine.llm.errors import LLM_BAD_RESPONSE, LLM_TIMEOUT, LLMResponseError
from ragspine.llm.ports import LLMProvider, StructuredLLMProvider
from ragspine.qa.attribution import Namer, misattributed
from ragspine.qa.citing import CitedAnswer, cite, revised
from ragspine.qa.evidence import Evidence
from ragspine.qa.focus import answering_sentence, first_shown, focus
from ragspine.qa.language import Lang
from ragspine.qa.narrative_copy import Copied, copied_sentence
from ragspine.qa.narrative_detail import NarrativeDetail
from ragspine.qa.on_topic import off_topic
from ragspine.qa.ports import NarrativeRetriever
from ragspine.qa.premise import ContradictedPremise
from ragspine.qa.prompt import (
    MISSING_CONTENT,
    MISSING_REASON,
    SYSTEM_PROMPT,
    RestrictedEvidenceError,
    asks_why,
    assemble_prompt,
)
from ragspine.qa.provenance import check_provenance, claims_text
from ragspine.qa.relevance import OTHER_ENTITY, RESTATED, about_other_entity, off_question
from ragspine.qa.reply import declines, keeps_language, strip_citations
from ragspine.qa.result import AnswerStatus, NarrativeKind
from ragspine.qa.stated_causes import QUOTE_LABEL, cause_to_name, gives_cause, unsaid_causes
from ragspine.qa.structured_reply import SCHEMA_NAME, answer_schema, read_structured
from ragspine.qa.subject import speaks_of, subject_of, unmet
from ragspine.qa.support import section_locator, support
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
    "off_question": {Lang.ZH: "模型的回复没有回答这个问题（只是复述了问题，或谈的是其他地区），以下为检索到的原文：",
                     Lang.EN: "The model's reply did not answer the question (it restated it, or spoke of another "
                              "entity), so here are the retrieved passages:",
                     Lang.JA: "モデルの応答は質問に答えていなかったため（質問の言い換え、"
                              "または別の対象についての記述）、検索された原文を示します："},
    "restated_twice": {Lang.ZH: "模型两次都只复述了问题（第二次已明确要求它写出资料中的{missing}），"
                                "以下为检索到的原文：",
                       Lang.EN: "The model only repeated the question, also when asked again for the {missing} the "
                                "passages state, so here are the retrieved passages:",
                       Lang.JA: "モデルは質問を繰り返しただけでした（資料に書かれた{missing}を改めて求めても"
                                "同じでした）。検索された原文を示します："},
    "unsupported": {Lang.ZH: "资料中没有说明：回答所引用的资料都没有提到{subject}。以下为检索到的原文：",
                    Lang.EN: "The documents do not say: none of the passages the answer cited speaks of {subject}. "
                             "The retrieved passages:",
                    Lang.JA: "資料には記載がありません。回答が引用した資料はいずれも{subject}に触れていません。"
                             "検索された原文："},
    "unsupported_sentence": {
        Lang.ZH: "资料中没有说明：回答的第{numbers}句在它引用的资料以及任何一段检索到的资料中都找不到依据。"
                 "以下为检索到的原文：",
        Lang.EN: "The documents do not say: sentence {numbers} of the generated answer is not supported by the passage "
                 "it cites, nor by any single retrieved passage. The retrieved passages:",
        Lang.JA: "資料には記載がありません。生成された回答の第{numbers}文は、引用した資料にも、"
                 "検索されたどの資料にも根拠がありません。検索された原文："},
    "timeout": {Lang.ZH: "模型未在{seconds}内回复，以下为检索到的原文（可稍后重试）：",
                Lang.EN: "The model did not reply within {seconds}, so here are the retrieved passages "
                         "(asking again may work):",
                Lang.JA: "モデルが{seconds}以内に応答しなかったため、検索された原文を示します（再試行できます）："},
    "error": {Lang.ZH: "模型暂时无法生成回答，以下为检索到的原文：",
              Lang.EN: "The model could not generate an answer, so here are the retrieved passages:",
              Lang.JA: "モデルが回答を生成できなかったため、検索された原文を示します："},
}
_HINTS = {
    "timeout": {Lang.ZH: "稍后重试；本地CPU模型较慢时，请调大 {setting}。",
                Lang.EN: "Ask again; for a slow local CPU model raise {setting}.",
                Lang.JA: "再試行してください。ローカルCPUモデルが遅い場合は {setting} を大きくしてください。"},
    "retryable": {Lang.ZH: "模型服务暂时不可用，请稍后重试。",
                  Lang.EN: "The model service is unavailable for now; ask again later.",
                  Lang.JA: "モデルサービスが一時的に利用できません。後で再試行してください。"},
    "fatal": {Lang.ZH: "模型拒绝了请求，重试无效；请检查 RAGSPINE_OPENAI_* 或模型设置。",
              Lang.EN: "The model refused the request and retrying will not help; check the RAGSPINE_OPENAI_* "
                       "or model settings.",
              Lang.JA: "モデルがリクエストを拒否しました。再試行では解決しません。"
                       "RAGSPINE_OPENAI_* などの設定を確認してください。"},
}

_LIST_SEPARATOR = {Lang.ZH: "、", Lang.EN: ", ", Lang.JA: "、"}
# The setting that bounds a provider's wait: an endpoint's own timeout wins over the global one.
_TIMEOUT_SETTING = {"openai": "RAGSPINE_OPENAI_TIMEOUT_S"}


@dataclass(frozen=True, slots=True)
class NarrativeOutcome:
    """The narrative answer, its sources, status, the evidence used, what was decided and why."""

    answer: str
    sources: tuple[dict[str, str], ...]
    status: AnswerStatus
    evidence: tuple[Evidence, ...] = ()
    decisions: tuple[str, ...] = ()
    detail: NarrativeDetail | None = None


def run_narrative(question: str, *, retriever: NarrativeRetriever | None, llm: LLMProvider, lang: Lang,
                  history: Sequence[Message] = (), top_k: int = DEFAULT_TOP_K,
                  max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                  system_prompt: str = SYSTEM_PROMPT, timeout_s: float | None = None,
                  glossary: Glossary | None = None, shown_passages: int = 0) -> NarrativeOutcome:
    """Answer a "why / what happened" question from cited passages only.

    ``timeout_s`` is the model's timeout, named in the notice when it is exceeded; with a
    ``glossary`` a figure given another entity than its passage's is rejected too. ``shown_passages``
    (0: all, as retrieved) gives the first prompt only that many, those on the question's topic first.
    """
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
    structured = llm if isinstance(llm, StructuredLLMProvider) and llm.structured_output != "off" else None
    honoured: list[bool] = []  # per request: the endpoint replied with the schema's JSON

    asked = subject_of(question, lang, glossary)
    named = (*sorted(asked.entities), *asked.names, *sorted(asked.years))

    # the passages the prompt gives (0-based), when not all of them as retrieved
    asked_from = first_shown(question, evidence, shown_passages, subject=_blanker(glossary))
    if asked_from:
        decisions.append(f"narrative:shown={len(asked_from)}/{len(evidence)}")

    def prompt(again: bool, restated: str | None = None, answer_from: tuple[int, str] | None = None,
               cause: tuple[int, str] | None = None, copied: Copied | None = None) -> list[Message]:
        copy = (copied.passage, copied.sentence, str(copied.written_in)) if copied is not None else None
        return assemble_prompt(question, evidence, history=history, system_prompt=system_prompt, lang=lang,
                               again=again, structured=structured is not None, subject=named, restated=restated,
                               shown=asked_from, answer_from=answer_from, cause=cause, copied=copy)

    def restates(text: str) -> tuple[str, tuple[int, ...]] | None:
        """The reply's own words and the passages it cites when it only says the question back, else None."""
        said = cite(text, evidence)
        claims = [claims_text(sentence, passages=len(evidence)) for sentence, _ in said.sentences]
        if off_question(question, claims) != RESTATED:
            return None
        return " ".join(" ".join(claims).split()), said.used

    def ask(messages: list[Message]) -> str:
        if structured is None:
            return llm.complete(messages).text.strip()
        reply = structured.complete_json(messages, answer_schema(len(evidence), [i + 1 for i in asked_from]),
                                       name=SCHEMA_NAME).text.strip()
        read = read_structured(reply, len(evidence))
        honoured.append(read is not None)
        if read == "":  # the asked-for JSON with no sentence in it: nothing the model said can be shown
            decisions.append("narrative:structured_output_empty")
            raise LLMResponseError("the model's JSON reply held no complete sentence", provider=llm.name,
                                   reason=LLM_BAD_RESPONSE)
        if read is None:  # the endpoint ignored response_format: read its free text like any other
            decisions.append("narrative:structured_output_ignored")
            _warn("structured_output_ignored", decisions)
        return reply if read is None else read

    try:
        messages = prompt(again=False)
    except RestrictedEvidenceError:
        # Exit 2 held although exit 1 let something through: drop it, never prompt with it.
        decisions.append("narrative:restricted_blocked_at_prompt")
        evidence = [e for e in evidence if e.sensitivity < Sensitivity.RESTRICTED]
        asked_from = first_shown(question, evidence, shown_passages, subject=_blanker(glossary))
        messages = prompt(again=False)
    if not evidence:
        return NarrativeOutcome(_TEXTS["empty"][lang], (), AnswerStatus.NO_EVIDENCE, decisions=tuple(decisions))
    try:
        text = ask(messages)
        asked_again = False
        if not declines(text) and not keeps_language(text, lang):
            decisions.append(f"narrative:language_asked_again:{lang}")
            asked_again = True
            text = ask(prompt(again=True))  # once: still another language is flagged below
        said_back = None if declines(text) else restates(text)
        reasked = said_back is not None
        reasked_cause = False
        if said_back is not None:  # once, naming what it left out: said back again, it is withheld below
            decisions.append("narrative:restated_asked_again")
            # named only from a passage about what was asked: another region's sentence drew the reply to it
            about = [i for i, item in enumerate(evidence) if speaks_of(asked, item, glossary)]
            answer_from = answering_sentence(question, evidence, about, subject=_blanker(glossary))
            asked_from = focus(question, said_back[1], evidence, subject=_blanker(glossary),
                               named=answer_from[0] if answer_from else None)
            if asked_from:  # the passages likeliest to answer, under their numbers: the same prompt got the same words
                decisions.append(f"narrative:asked_from={len(asked_from)}/{len(evidence)}")
            text = ask(prompt(again=asked_again, restated=said_back[0], answer_from=answer_from))
        elif asks_why(question, lang) and not declines(text) and not gives_cause(_own_words(text, evidence)):
            # once, naming the cause sentence of a passage about what was asked: the reply gave a circumstance
            cited_now = cite(text, evidence).used
            about = [i for i, item in enumerate(evidence) if speaks_of(asked, item, glossary)]
            cause = cause_to_name(question, evidence, [*[i for i in cited_now if i in about],
                                                      *[i for i in about if i not in cited_now]])
            if cause is not None:
                decisions.append("narrative:cause_asked")
                reasked_cause = True
                asked_from = focus(question, cited_now, evidence, subject=_blanker(glossary), named=cause[0])
                text = ask(prompt(again=asked_again, cause=cause))
        copy = None
        if (asked_again or reasked or reasked_cause) and not declines(text) and not keeps_language(text, lang):
            copy = copied_sentence(text, evidence, lang)
        if copy is not None:  # once, naming the sentence copied and its language: still a copy, it is flagged below
            decisions.append(f"narrative:copy_asked_again:{copy.written_in}")
            if asked_from and copy.passage not in asked_from:
                asked_from = (copy.passage, *asked_from)
            text = ask(prompt(again=asked_again, copied=copy))
    except ProviderUnavailableError as exc:
        return _unavailable(exc, evidence, lang, decisions, timeout_s)
    as_json = honoured[-1] if honoured else None
    if declines(text):
        decisions.append("narrative:model_declined")
        _warn("model_declined", decisions)
        detail = NarrativeDetail(NarrativeKind.MODEL_DECLINED, language_kept=keeps_language(text, lang),
                                 asked_again=asked_again, asked_for_answer=reasked, structured_output=as_json)
        said = strip_citations(text).strip()
        return NarrativeOutcome(said, (), AnswerStatus.NO_EVIDENCE, (), tuple(decisions), detail)
    kept = keeps_language(text, lang)
    if not kept:
        decisions.append(f"narrative:language_not_kept:{lang}")
        _warn("language_not_kept", decisions)
    cited = cite(text, evidence)
    namer = glossary.entity_codes if glossary is not None else None
    unsupported = _unsupported(cited, evidence, namer)
    if unsupported:
        decisions += ["provenance:rejected", f"provenance:unsupported={len(unsupported)}"]  # values: detail only
        _warn("provenance_rejected", decisions)
        detail = NarrativeDetail(NarrativeKind.PROVENANCE_REJECTED, unsupported=unsupported, language_kept=kept,
                                 asked_again=asked_again, asked_for_answer=reasked, structured_output=as_json)
        return NarrativeOutcome(f"{_TEXTS['rejected'][lang]}\n{_quoted(evidence)}", _sources(evidence),
                                AnswerStatus.PROVENANCE_REJECTED, tuple(evidence), tuple(decisions), detail)
    decisions.append("provenance:pass")
    claims = [claims_text(sentence, passages=len(evidence)) for sentence, _ in cited.sentences]
    home = frozenset({glossary.home_entity}) if glossary is not None else frozenset()
    off = off_question(question, claims, entities=namer, home=home)
    if off is not None:
        decisions.append(f"narrative:off_question:{off}")
        _warn("off_question", decisions)
        detail = NarrativeDetail(NarrativeKind.OFF_QUESTION, reason=off, language_kept=kept, asked_again=asked_again,
                                 asked_for_answer=reasked, structured_output=as_json)
        notice = _TEXTS["restated_twice" if off == RESTATED and reasked else "off_question"][lang]
        notice = notice.format(missing=(MISSING_REASON if asks_why(question, lang) else MISSING_CONTENT)[lang])
        return NarrativeOutcome(f"{notice}\n{_quoted(evidence)}", _sources(evidence),
                                AnswerStatus.PROVENANCE_REJECTED, tuple(evidence), tuple(decisions), detail)
    review = _review(question, cited, evidence, namer, home)
    missing = unmet(asked, [review.pool[i] for i in review.recited.used], lang, glossary)
    if missing:  # sourced and on the question's words, but about what no cited passage speaks of
        decisions += ["narrative:subject_unsupported", f"narrative:subject_unmet={len(missing)}"]  # parts: detail only
        _warn("subject_unsupported", decisions)
        detail = NarrativeDetail(NarrativeKind.UNSUPPORTED_SUBJECT, unsupported=missing, language_kept=kept,
                                 asked_again=asked_again, asked_for_answer=reasked, structured_output=as_json)
        shown = [f"{part}年" if lang is not Lang.EN and part.isdigit() else part for part in missing]  # a year
        notice = _TEXTS["unsupported"][lang].format(subject=_LIST_SEPARATOR[lang].join(shown))
        return NarrativeOutcome(f"{notice}\n{_quoted(evidence)}", _sources(evidence), AnswerStatus.UNSUPPORTED,
                                tuple(evidence), tuple(decisions), detail)
    if review.dropped:
        decisions.append(f"narrative:other_entity_dropped={len(review.dropped)}")
        if len(review.dropped) == len(cited.sentences):  # every sentence is another entity's: as the reply check
            decisions.append(f"narrative:off_question:{OTHER_ENTITY}")
            _warn("off_question", decisions)
            detail = NarrativeDetail(NarrativeKind.OFF_QUESTION, reason=OTHER_ENTITY, language_kept=kept,
                                     asked_again=asked_again, asked_for_answer=reasked, structured_output=as_json)
            return NarrativeOutcome(f"{_TEXTS['off_question'][lang]}\n{_quoted(evidence)}", _sources(evidence),
                                    AnswerStatus.PROVENANCE_REJECTED, tuple(evidence), tuple(decisions), detail)
    if review.moved:
        decisions.append(f"narrative:recited={review.moved}")
    if review.unsupported:  # a sentence neither its cited passage nor any one retrieved passage says
        decisions += ["narrative:sentence_unsupported", f"narrative:sentences_unsupported={len(review.unsupported)}"]
        _warn("sentence_unsupported", decisions)
        unsupported_said = tuple(f"{i + 1}: {' '.join(claims[i].split())}" for i in review.unsupported)
        detail = NarrativeDetail(NarrativeKind.UNSUPPORTED_SENTENCE, unsupported=unsupported_said,
                                 language_kept=kept, asked_again=asked_again, asked_for_answer=reasked,
                                 structured_output=as_json)
        numbers = _LIST_SEPARATOR[lang].join(str(i + 1) for i in review.unsupported)
        notice = _TEXTS["unsupported_sentence"][lang].format(numbers=numbers)
        return NarrativeOutcome(f"{notice}\n{_quoted(evidence)}", _sources(evidence), AnswerStatus.UNSUPPORTED,
                                tuple(evidence), tuple(decisions), detail)
    cited = review.answer
    if len(cited.sentences) > 1:  # sentences stringing on passages that do not speak to the question
        strayed = _off_topic(question, cited, review.pool, len(evidence), glossary)
        if strayed:
            decisions.append(f"narrative:off_topic_dropped={len(strayed)}")
            cited = revised(cited, review.pool, dict.fromkeys(strayed))
    used = [review.pool[i] for i in cited.used]
    decisions.append(f"narrative:cited={len(used)}/{len(evidence)}")
    answer = cited.text
    if asks_why(question, lang):  # the cause its cited passage states and the answer left out, quoted
        quoted = unsaid_causes(question, " ".join(said for said, _ in cited.sentences), used)  # not its citations
        if quoted:
            decisions.append(f"narrative:causes_quoted={len(quoted)}")
            answer += "".join(f"\n{QUOTE_LABEL[lang].format(sentence=sentence)}"
                              f"{passage_citation(item.doc, item.locator)}" for sentence, item in quoted)
    detail = NarrativeDetail(NarrativeKind.MODEL_ANSWER, language_kept=kept, asked_again=asked_again,
                             asked_for_answer=reasked, structured_output=as_json)
    return NarrativeOutcome(answer, _sources(used), AnswerStatus.ANSWERED, tuple(used), tuple(decisions), detail)


@dataclass(frozen=True, slots=True)
class _Review:
    """The answer after each sentence was checked against its passage and the question's entity."""

    answer: CitedAnswer  # re-cited, without the dropped sentences
    recited: CitedAnswer  # re-cited, every sentence kept
    pool: tuple[Evidence, ...]  # the prompt's passages, then the sections sentences were re-cited to
    unsupported: tuple[int, ...] = ()  # 0-based sentences no passage supports
    dropped: tuple[int, ...] = ()  # 0-based sentences about another entity than asked
    moved: int = 0  # sentences re-cited


def _review(question: str, cited: CitedAnswer, evidence: Sequence[Evidence], namer: Namer | None,
            home: frozenset[str]) -> _Review:
    """Re-cite each sentence to the passage it draws from, drop those about another entity, find the unsupported.

    A sentence about another entity is dropped rather than declined: the rest of the answer still
    answers (Hong Kong's causes without Japan's); an answer made only of such sentences is off the question.
    """
    pool = list(evidence)
    moves: dict[int, int | None] = {}
    unsupported: list[int] = []
    dropped: list[int] = []
    for i, (sentence, passages) in enumerate(cited.sentences):
        claims = claims_text(sentence, passages=len(evidence))
        found = support(claims, passages, evidence, question)
        final = passages
        if found.recited is not None:
            final = (found.recited,)
        elif found.section is not None:
            final = (_section_index(pool, evidence[found.section]),)
        elif not found.kept:
            unsupported.append(i)
        if final != passages:
            moves[i] = final[0]
        if namer is not None and about_other_entity(question, claims, [namer(_where(pool[j])) for j in final],
                                                    entities=namer, home=home):
            dropped.append(i)
    changes: dict[int, int | None] = {**moves, **dict.fromkeys(dropped)}
    return _Review(revised(cited, pool, changes), revised(cited, pool, moves), tuple(pool),
                   tuple(i for i in unsupported if i not in dropped), tuple(dropped), len(moves))


def _off_topic(question: str, cited: CitedAnswer, pool: Sequence[Evidence], prompted: int,
               glossary: Glossary | None) -> tuple[int, ...]:
    """The sentences off the question's topic; the first ``prompted`` of ``pool`` are paragraphs, the rest sections."""
    claims = [claims_text(sentence, passages=prompted) for sentence, _ in cited.sentences]
    paragraphs = [item.text if i < prompted else "" for i, item in enumerate(pool)]
    return off_topic(question, claims, [passages for _, passages in cited.sentences], paragraphs,
                     [item.text for item in pool], subject=_blanker(glossary))


def _blanker(glossary: Glossary | None) -> Callable[[str], str]:
    """Blanks the entities and periods a text names (the subject every passage of a region and year shares)."""
    if glossary is None:
        return str

    def blanked(text: str) -> str:
        named = [m for m in glossary.scan(text) if m.kind in (SlotKind.ENTITY, SlotKind.PERIOD)]
        return glossary.leftover(text, named)
    return blanked


def _section_index(pool: list[Evidence], item: Evidence) -> int:
    """The pool index of the section around ``item`` (its context, under the section's locator), added once."""
    section = replace(item, locator=section_locator(item.locator) or item.locator, text=item.context, context="")
    for i, known in enumerate(pool):
        if (known.doc, known.locator) == (section.doc, section.locator):
            return i
    pool.append(section)
    return len(pool) - 1


def _own_words(text: str, evidence: Sequence[Evidence]) -> str:
    """The reply's sentences without their citations (a locator is no cause the model gave)."""
    return " ".join(claims_text(sentence, passages=len(evidence)) for sentence, _ in cite(text, evidence).sentences)


def _where(item: Evidence) -> str:
    return " ".join((item.text, item.locator, item.doc))


def _unsupported(cited: CitedAnswer, evidence: Sequence[Evidence], entities: Namer | None) -> tuple[str, ...]:
    """Numbers no passage states, then figures given a year (or entity) their passage does not give them."""
    report = check_provenance(cited.text, evidence_texts=[e.context or e.text for e in evidence],
                              passages=len(evidence))
    if not report.ok:
        return report.unsupported
    claims = [claims_text(sentence, passages=len(evidence)) for sentence, _ in cited.sentences]
    return misattributed(claims, evidence, entities=entities)


def premise_outcome(corrected: ContradictedPremise) -> NarrativeOutcome:
    """The correction of a premise the facts contradict, in place of the model's answer: its two figures cited."""
    return NarrativeOutcome(corrected.text, source_dicts(corrected.sources), AnswerStatus.ANSWERED,
                            decisions=(f"narrative:premise_contradicted:{corrected.direction}",),
                            detail=NarrativeDetail(NarrativeKind.PREMISE_CONTRADICTED))


def _unavailable(exc: ProviderUnavailableError, evidence: Sequence[Evidence], lang: Lang, decisions: list[str],
                 timeout_s: float | None) -> NarrativeOutcome:
    """The passages quoted under a notice saying the model did not answer, and what to do."""
    reason = str(getattr(exc, "reason", exc.code))
    retryable = bool(getattr(exc, "retryable", True))
    timed_out = reason == LLM_TIMEOUT
    decisions.append(f"narrative:llm_failed:{reason}")
    _warn("llm_failed", decisions)
    if timed_out:
        seconds = f"{timeout_s:g} s" if timeout_s else {Lang.ZH: "时限", Lang.EN: "the time limit",
                                                        Lang.JA: "制限時間"}[lang]
        notice = _TEXTS["timeout"][lang].format(seconds=seconds)
        hint = _HINTS["timeout"][lang].format(setting=_TIMEOUT_SETTING.get(str(getattr(exc, "provider", "")),
                                                                          "RAGSPINE_LLM_TIMEOUT_S"))
    else:
        notice = _TEXTS["error"][lang]
        hint = _HINTS["retryable" if retryable else "fatal"][lang]
    detail = NarrativeDetail(NarrativeKind.MODEL_TIMEOUT if timed_out else NarrativeKind.MODEL_ERROR,
                             reason=reason, retryable=retryable, hint=hint)
    return NarrativeOutcome(f"{notice}\n{_quoted(evidence)}", _sources(evidence), AnswerStatus.MODEL_UNAVAILABLE,
                            tuple(evidence), tuple(decisions), detail)


def _quoted(evidence: Sequence[Evidence]) -> str:
    return "\n".join(f"- {e.text}{passage_citation(e.doc, e.locator)}" for e in evidence)


def _sources(evidence: Sequence[Evidence]) -> tuple[dict[str, str], ...]:
    return source_dicts(Source(e.doc, e.locator) for e in evidence)


def _warn(what: str, decisions: Sequence[str]) -> None:
    logger.warning("narrative %s: %s", what, " ".join(decisions), extra={"narrative_decisions": list(decisions)})
