"""Facts extracted again from every active document version's stored parsed document.

When the extractor or the glossary changes, the facts of what was ingested are re-derived
from ``document.json`` (the version's blocks and tables, kept by ingestion beside its text):
the original file is not parsed again and nothing is re-embedded or re-indexed. The fact
table is then rewritten by the same merge rule as ingestion (``primary_facts``, differing
figures kept beside), and each document's change is reported by fact key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ragspine.facts.model import Fact, FactKey
from ragspine.ingestion import staged
from ragspine.ingestion.fact_conflicts import differing_facts
from ragspine.ingestion.facts_extract import EXTRACTOR_VERSION, ExtractionResult, extract_facts, primary_facts
from ragspine.ingestion.operations import ActiveVersion
from ragspine.ingestion.steps import StepContext
from ragspine.retrieval.version_text import safe_version_id


@dataclass(frozen=True, slots=True)
class DocumentChange:
    """One document version's facts before and after: keys added, removed, and stated differently.

    ``stored`` is False when the version has no stored parsed document (ingested before it
    was kept): its facts are left as they are until it is ingested once more.
    """

    doc_id: str
    version_id: str
    facts: int
    added: int = 0
    removed: int = 0
    changed: int = 0
    stored: bool = True
    warnings: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        """Whether anything about the document's facts changed."""
        return bool(self.added or self.removed or self.changed)


@dataclass(frozen=True, slots=True)
class ReextractReport:
    """What a re-extraction found (and, unless a dry run, wrote)."""

    documents: tuple[DocumentChange, ...]
    facts: int  # facts in the table after the merge
    extractor_version: str
    mapping_version: str
    written: bool


def reextract_facts(context: StepContext, *, dry_run: bool = False) -> ReextractReport:
    """Re-extract the facts of every active document version and rewrite the fact table.

    Args:
        context: the ingestion ports (staging for the active versions, ``texts`` for their
            parsed documents, the operations for their file hash and sensitivity, the facts).
        dry_run: report only; nothing is written.

    Returns:
        Per document, what changed, and the fact count after the merge.
    """
    results: list[ExtractionResult] = []
    changes: list[DocumentChange] = []
    renewed: list[ActiveVersion] = []
    for active in context.staging.active():
        old = staged.load_extraction(active.extraction)
        operation = context.operations.get(active.operation_id)
        if operation is not None and operation.space is not None:
            results.append(old)  # a Gateway document: its tables never become facts
            continue
        data = (context.texts.get_document(active.version_id)
                if context.texts is not None and safe_version_id(active.version_id) else None)
        if operation is None or data is None:
            results.append(old)
            changes.append(DocumentChange(active.doc_id, active.version_id, len(old.facts), stored=False))
            continue
        new = extract_facts(staged.load_document(data), glossary=context.glossary,
                            source_file_hash=operation.file_hash, sensitivity=operation.sensitivity)
        results.append(new)
        changes.append(_compare(active, old.facts, new))
        renewed.append(replace(active, extraction=staged.dump_extraction(new).decode("utf-8")))
    merged = primary_facts(results, context.glossary)
    if not dry_run:
        _rewrite(context, renewed, results, merged.facts)
    return ReextractReport(tuple(changes), len(merged.facts), EXTRACTOR_VERSION, context.glossary.version,
                           written=not dry_run)


def _rewrite(context: StepContext, renewed: Sequence[ActiveVersion], results: Sequence[ExtractionResult],
             merged: Sequence[Fact]) -> None:
    """Record the new extractions, then write the merged facts before removing what no document states."""
    for version in renewed:
        context.staging.activate(version)
    context.facts.put_many(merged)
    owned: dict[str, set[FactKey]] = {r.doc_id: set() for r in results}
    for fact in merged:
        owned.setdefault(fact.source_doc_id, set()).add(fact.key)
    for doc_id, keys in owned.items():
        context.facts.delete_by_source(doc_id, keep=keys)
    context.facts.put_conflicts(differing_facts((r.facts for r in results), merged))


def _compare(active: ActiveVersion, before: Sequence[Fact], after: ExtractionResult) -> DocumentChange:
    old = _by_key(before)
    new = _by_key(after.facts)
    changed = sum(1 for key in old.keys() & new.keys() if _stated(old[key]) != _stated(new[key]))
    return DocumentChange(active.doc_id, active.version_id, len(after.facts), added=len(new.keys() - old.keys()),
                          removed=len(old.keys() - new.keys()), changed=changed, warnings=after.warnings)


def _by_key(facts: Sequence[Fact]) -> dict[FactKey, Fact]:
    found: dict[FactKey, Fact] = {}
    for fact in facts:
        found.setdefault(fact.key, fact)
    return found


def _stated(fact: Fact) -> tuple[object, ...]:
    """What a fact says (its lineage versions aside): a new extractor stamping the same figure is no change."""
    return (fact.value, type(fact.value), fact.unit, fact.geography, fact.source_locator, fact.sensitivity)
