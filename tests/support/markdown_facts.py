"""A table written as Markdown under a heading, parsed and read by the real parser and table reader."""

from __future__ import annotations

from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.glossary import default_glossary


def markdown_table_facts(rows: list[list[str]], heading: str, after: str = "") -> list[Fact]:
    """The facts the default glossary reads from ``rows`` (the first one the header) under ``# heading``,
    with the paragraph ``after`` set after the table."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = f"# {heading}\n\n" + "\n".join(lines) + "\n" + (f"\n{after}\n" if after else "")
    return markdown_facts(text)


def markdown_facts(text: str, name: str = "t.md") -> list[Fact]:
    """The facts the default glossary reads from the Markdown document ``text`` named ``name``."""
    doc = parse_document(text.encode(), filename=name, doc_id=name, max_bytes=1_000_000)
    return list(extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts)
