"""Every child chunk is an exact slice of its version's normalised text, for every format we parse.

The sample corpus (md, docx, pptx, xlsx), HTML and plain text written here (CJK, emoji,
combining marks), and real third-party files from ``../shared/corpus`` (PDF, docx, pptx,
xlsx) go through the real parsers and the chunker, as ingestion runs them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.chunking import ChunkLimits, ChunkMeta, chunk_document
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers import parse_document
from ragspine.retrieval.version_text import decode, encode, version_text
from tests.support.cfn import REPO_ROOT

SAMPLES = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme"
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
REAL_FILES = ["docs/camelot_budget_2014-15.pdf", "docs/unstructured_korean-text-with-tables.pdf",
              "docs/pdfplumber_senate-expenditures.pdf", "docs/unstructured_docx-tables.docx",
              "docs/unstructured_sample-presentation.pptx", "docs/unstructured_fake-power-point-table.pptx",
              "docs/unstructured_vodafone.xlsx", "financebench_dev/3M_2018_10K.pdf"]
HTML = ("<html><body><h1>出張規程</h1><p>社員は６時間未満のフライトでエコノミークラスを利用する。ホテルは一泊１５０ユーロまで。</p>"
        "<h2>Café rules</h2><p>Cafe\u0301 receipts 🧾 must be kept; 👩‍👩‍👧 family trips are not refunded.</p>"
        "<table><tr><th>City</th><th>Limit</th></tr><tr><td>Paris 🇫🇷</td><td>180</td></tr></table></body></html>")
TEXT = ("Travel policy\n\n" + "Employees book economy class for flights under six hours. " * 40
        + "\n\n差旅政策：六小时以内的航班一律乘坐经济舱。" * 30 + "\n\nEmoji 😀 and e\u0301 stay whole.\n")


def _assert_exact(doc: ParsedDocument) -> int:
    chunked = chunk_document(doc, meta=ChunkMeta(version_id="ver-1"))
    record = decode(*encode(version_text(doc.doc_id, "ver-1", chunked)))  # as stored and read back
    assert len(record.passages) == len(chunked.children)
    for chunk in chunked.children:
        passage = record.passages[chunk.chunk_id]
        assert passage.exact, (chunk.source_locator, chunk.text[:80])
        assert record.text[passage.start:passage.end] == chunk.text
        assert passage.heading_path == chunk.heading_path
    return len(chunked.children)


def _parse(path: Path) -> ParsedDocument:
    return parse_document(path.read_bytes(), doc_id=path.stem, filename=path.name, max_bytes=64 * 1024 * 1024)


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir() if p.suffix in {".md", ".docx", ".pptx",
                                                                                             ".xlsx"}))
def test_every_chunk_of_the_sample_corpus_is_an_exact_offset(name: str) -> None:
    assert _assert_exact(_parse(SAMPLES / name)) > 0


@pytest.mark.parametrize(("name", "data"), [("policy.html", HTML.encode()), ("policy.txt", TEXT.encode())])
def test_html_and_text_chunks_are_exact_with_cjk_emoji_and_combining_marks(name: str, data: bytes) -> None:
    doc = parse_document(data, doc_id="d", filename=name, max_bytes=1 << 20)
    assert _assert_exact(doc) > 1


@pytest.mark.corpus
@pytest.mark.parametrize("relative", REAL_FILES)
def test_every_chunk_of_real_corpus_files_is_an_exact_offset(relative: str) -> None:
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared corpus is not mounted here)")
    assert _assert_exact(_parse(path)) > 0


@pytest.mark.corpus
def test_pdf_pages_become_the_passages_page_range() -> None:
    path = CORPUS / "financebench_dev/3M_2018_10K.pdf"
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared corpus is not mounted here)")
    doc = _parse(path)
    record = version_text(doc.doc_id, "v", chunk_document(doc, meta=ChunkMeta(version_id="v")))
    pages = [p.page_start for p in record.passages.values()]
    assert all(isinstance(p, int) and p >= 1 for p in pages)
    assert max(p for p in pages if p) > 50  # a 10-K: passages cite pages far into it
    assert all(p.page_end is not None and p.page_start is not None and p.page_end >= p.page_start
               for p in record.passages.values())


_PARTS = [*"abc xyz。！？.!;，、,\n", "e\u0301", "😀", "漢", "👩‍👧"]
_WORDS = st.lists(st.sampled_from(_PARTS), min_size=1, max_size=300).map("".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["para", "heading", "page"]), _WORDS), min_size=1, max_size=12))
def test_any_text_is_cut_into_exact_slices(blocks: list[tuple[str, str]]) -> None:
    parsed = []
    for i, (kind, text) in enumerate(blocks):
        if kind == "heading":
            parsed.append(Block(BlockKind.HEADING, text, f"heading={i}"))
        else:
            locator = f"page={1 + i // 3},para={i % 3 + 1}" if kind == "page" else f"para={i}"
            parsed.append(Block(BlockKind.PARAGRAPH, text, locator))
    doc = ParsedDocument(doc_id="d", title="", media_type="text/plain", blocks=tuple(parsed))
    chunked = chunk_document(doc, meta=ChunkMeta(version_id="v"), limits=ChunkLimits(max_chars=40, target_chars=90))
    for chunk, (start, end) in zip(chunked.children, chunked.spans, strict=True):
        assert chunked.text[start:end] == chunk.text
