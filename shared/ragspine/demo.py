"""The ACME sample corpus as demo data: where it lives and how it is loaded."""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path

from ragspine.facts.curated import read_facts_csv
from ragspine.facts.ports import FactStore

logger = logging.getLogger(__name__)

SAMPLE_QUESTION = "2024年日本的毛利率是多少"
FACTS_FILE = "facts.csv"


def sample_dir() -> Path:
    """Folder of the built ACME documents, shipped as package data."""
    return Path(str(resources.files("ragspine") / "samples" / "acme"))


def ensure_sample_corpus(folder: Path | None = None) -> Path:
    """Return the sample folder, building the documents first if they are missing."""
    folder = folder or sample_dir()
    if not (folder / FACTS_FILE).exists():
        from ragspine.samples.build_acme import build_corpus

        logger.info("building the ACME sample corpus into %s", folder)
        build_corpus(folder)
    return folder


def load_sample_facts(store: FactStore, folder: Path | None = None) -> int:
    """Upsert the curated ACME facts (full lineage) into ``store``; idempotent."""
    facts = read_facts_csv(ensure_sample_corpus(folder) / FACTS_FILE)
    return store.put_many(facts)
