"""The domain's sample corpus as demo data: where it lives, which documents it holds, how it is loaded.

The product paths (``ragspine load-samples``, ``ragspine serve --samples``, ``make run``) ingest
``sample_documents()`` through the ingestion pipeline, like any upload. ``facts.csv`` is the
acceptance fixture the ingested facts are compared with (the tests read it).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ragspine.domain.files import default_domain_dir
from ragspine.domain.profile import profile_of
from ragspine.errors import ConfigurationError
from ragspine.ingestion.parsers import supported_extensions
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ragspine import samples
    from ragspine.ingestion.steps import StepContext
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    samples = LazyModule("ragspine.samples")

logger = logging.getLogger(__name__)

FACTS_FILE = "facts.csv"


def sample_dir(domain: Path | None = None) -> Path:
    """Folder of the domain's sample documents (``samples`` in its domain.yaml; default the shipped demo domain).

    Raises:
        ConfigurationError: the domain names no sample documents.
    """
    profile = profile_of(domain or default_domain_dir())
    if profile.samples is None:
        raise ConfigurationError(f"domain {profile.name} has no sample documents: set `samples` in its "
                                 "domain.yaml, or ingest your own files with `ragspine ingest`")
    return profile.samples


def sample_question(domain: Path | None = None) -> str | None:
    """The question ``make run`` asks first (``sample_question`` in the domain's domain.yaml)."""
    return profile_of(domain or default_domain_dir()).sample_question


def ensure_sample_corpus(folder: Path | None = None) -> Path:
    """Return the sample folder, building the shipped demo documents first if they are missing."""
    folder = folder or sample_dir()
    if not (folder / "manifest.yaml").exists():
        logger.info("building the sample corpus into %s", folder)
        samples.build_for(folder)
    return folder


def sample_documents(folder: Path | None = None) -> list[Path]:
    """The documents of the sample manifest the pipeline ingests, in manifest order.

    Every listed file the parsers read (decks, workbook, MD&A, report, policy, the RESTRICTED
    minutes); ``faq.yaml`` is not a document but the FAQ index, which ``build_faq`` reads.
    Their sensitivity and library come from the manifest (``ingestion.submission.document_meta``).
    """

    folder = ensure_sample_corpus(folder)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    names = [str(entry["file"]) for entry in manifest["documents"]]
    return [folder / name for name in names if Path(name).suffix.lower() in supported_extensions()]


def clear_unversioned_chunks(context: StepContext, doc_ids: Iterable[str]) -> int:
    """Remove the chunks of each document that has no active version yet; return how many.

    Before the samples were ingested, ``load-samples`` indexed them directly, without a
    version id. Activation retires only the previous *active* version's chunks, so those
    rows would stay beside the ingested ones and every passage would be found twice. A
    document without an active version has nothing of the pipeline's in the index (an
    activation interrupted before recording its version is re-done in full on the next run),
    so all its rows can go. Documents already ingested are left alone: a re-run costs nothing.
    """
    if context.index is None:
        return 0
    return sum(context.index.delete(doc_id=doc_id) for doc_id in doc_ids if not context.staging.active(doc_id))
