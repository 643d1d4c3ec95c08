"""The Vela Health sample corpus: reproducible bytes, and FAQ answers stated where they cite."""

from __future__ import annotations

from pathlib import Path

import yaml

from ragspine.domain.files import shipped_domains_dir
from ragspine.ingestion.parsers import parse_document
from ragspine.samples.build_vela import SAMPLES_DIR, build_corpus, text_pdf


def test_building_twice_gives_identical_bytes_equal_to_the_committed_copy(tmp_path: Path) -> None:
    first, second = build_corpus(tmp_path / "a"), build_corpus(tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    stale = [p.name for p in first if p.read_bytes() != (SAMPLES_DIR / p.name).read_bytes()]
    assert stale == [], "run `python -m ragspine.samples.build_vela` and commit the result"


def test_the_hand_written_pdf_is_read_by_the_pdf_parser() -> None:
    parsed = parse_document(text_pdf("T (1)", ("Hello (world)", "second line")), doc_id="t.pdf", filename="t.pdf",
                            max_bytes=10_000)
    assert parsed.title == "T (1)"
    assert "Hello (world)" in " ".join(b.text for b in parsed.blocks)


def test_every_faq_answer_is_stated_at_its_cited_locator() -> None:
    faq = yaml.safe_load((shipped_domains_dir() / "vela" / "faq.yaml").read_text(encoding="utf-8"))
    for entry in faq["entries"]:
        doc, locator = entry["source"]["doc"], entry["source"]["locator"]
        parsed = parse_document((SAMPLES_DIR / doc).read_bytes(), doc_id=doc, filename=doc, max_bytes=10_000_000)
        stated = {b.locator: b.text for b in parsed.blocks}
        assert entry["answer"] in stated[locator], entry["id"]


def test_the_manifest_lists_every_document_in_a_library_the_domain_routes() -> None:
    manifest = yaml.safe_load((SAMPLES_DIR / "manifest.yaml").read_text(encoding="utf-8"))
    routing = yaml.safe_load((shipped_domains_dir() / "vela" / "libraries.yaml").read_text(encoding="utf-8"))
    assert {d["file"] for d in manifest["documents"]} == {p.name for p in SAMPLES_DIR.iterdir()} - {"manifest.yaml"}
    assert {d["library"] for d in manifest["documents"]} <= set(routing["libraries"])
