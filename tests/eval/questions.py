"""The labelled ACME questions (``acme_questions.yaml``): loading and validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.eval.model import EvalQuery

QUESTIONS_FILE = Path(__file__).with_name("acme_questions.yaml")
LANGUAGES = ("zh", "en", "ja")


class LabelError(ValueError):
    """The labelled file is malformed (the message names the question)."""


def load_questions(path: Path = QUESTIONS_FILE) -> tuple[EvalQuery, ...]:
    """Read and check the labelled questions.

    Raises:
        LabelError: a missing field, an unknown language, a duplicate id, a question with no
            gold that is not restricted-only, or a restricted-only question with gold.
    """
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("questions"), list):
        raise LabelError(f"{path.name}: expected a mapping with a 'questions' list")
    queries = tuple(_query(entry) for entry in raw["questions"])
    seen: set[str] = set()
    for query in queries:
        if query.qid in seen:
            raise LabelError(f"duplicate question id {query.qid!r}")
        seen.add(query.qid)
    return queries


def _query(entry: Any) -> EvalQuery:
    if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("id", "lang", "question")):
        raise LabelError(f"a question needs string id, lang and question: {entry!r}")
    qid, lang, text = entry["id"], entry["lang"], entry["question"].strip()
    if lang not in LANGUAGES:
        raise LabelError(f"{qid}: lang must be one of {LANGUAGES}, got {lang!r}")
    restricted = bool(entry.get("restricted_only", False))
    gold_entries = entry.get("gold") or []
    if not isinstance(gold_entries, list):
        raise LabelError(f"{qid}: gold must be a list of {{doc, locator}}")
    gold = frozenset(_gold(qid, g) for g in gold_entries)
    if not text:
        raise LabelError(f"{qid}: empty question")
    if restricted and gold:
        raise LabelError(f"{qid}: a restricted-only question has no gold")
    if not restricted and not gold:
        raise LabelError(f"{qid}: gold is missing")
    return EvalQuery(qid, text, lang, gold, restricted, str(entry.get("topic", "")))


def _gold(qid: str, entry: Any) -> tuple[str, str]:
    if not isinstance(entry, dict) or not isinstance(entry.get("doc"), str) or not isinstance(entry.get("locator"), str):
        raise LabelError(f"{qid}: each gold entry needs doc and locator strings, got {entry!r}")
    return (entry["doc"], entry["locator"])
