"""``domain check`` on curated answers: each FAQ answer's numbers must be stated where it cites them.

The cited document is read from the domain's sample files (``domain.yaml`` ``samples``) with
the same parsers ingestion uses, and cut into the passages search would cite (a table into
its rows), so a citation of a cell is checked against its row. A document that is not among
the samples is read back from the data folder it was ingested into (the stored parsed
document the answer path reads too, tables that gave facts included). One that is neither
cannot be checked: a note says so, and the answer path checks it once it is ingested.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ragspine.domain.checks import CheckedFile
from ragspine.domain.marks import Problem
from ragspine.errors import RagspineError
from ragspine.ingestion.cited_passages import block_passages
from ragspine.ingestion.parsers import parse_document
from ragspine.qa.faq_check import CitedPassages, cited_texts, states_numbers, unsupported_numbers

_MAX_BYTES = 64 * 1024 * 1024


def faq_source_problems(faq: CheckedFile, data: Mapping[str, Any], samples: Path | None,
                        ingested: CitedPassages | None = None) -> tuple[list[Problem], list[Problem]]:
    """The FAQ answers whose numbers their cited passage does not state (problems), and those whose
    cited document is neither a sample nor ingested, so nothing could be checked (notes)."""
    problems: list[Problem] = []
    notes: list[Problem] = []
    read: dict[str, list[tuple[str, str]] | None] = {}
    for index, entry in enumerate(data.get("entries") or []):
        answer, source = str(entry["answer"]), entry["source"]
        doc, locator = str(source["doc"]), str(source["locator"])
        if not states_numbers(answer):
            continue
        if samples is not None and doc not in read:
            read[doc] = _passages(samples, doc)
        passages = read.get(doc)
        if passages is not None:
            texts: tuple[str, ...] | None = cited_texts(locator, passages)
        else:
            texts = ingested.passages(doc, locator, hint=answer) if ingested is not None else None
        if texts is None:
            notes.append(faq.problem(("entries", index, "source", "doc"),
                                     f"{doc} is neither a sample file nor ingested in the data folder, so the "
                                     "numbers of the answer could not be checked (the service checks them once "
                                     "it is ingested)"))
        elif not texts:
            problems.append(faq.problem(("entries", index, "source", "locator"),
                                        f"{doc} has no passage at {locator!r}, so the numbers of the answer cannot "
                                        "be checked: cite the locator `ragspine search` shows for the passage"))
        elif missing := unsupported_numbers(answer, texts):
            problems.append(faq.problem(("entries", index, "answer"),
                                        f"states {', '.join(missing)}, which {doc} at {locator} does not state: "
                                        "correct the answer or cite the passage that states these numbers"))
    return problems, notes


def _passages(samples: Path, doc: str) -> list[tuple[str, str]] | None:
    """``(text, locator)`` of every passage of a sample document, or None when it is not a sample."""
    path = samples / doc
    if not path.is_file() or samples.resolve() not in path.resolve().parents:
        return None
    try:
        parsed = parse_document(path.read_bytes(), doc_id=doc, filename=doc, max_bytes=_MAX_BYTES)
    except RagspineError:
        return None  # ingestion reports an unreadable file; nothing to check against here

    return list(block_passages(parsed.blocks))
