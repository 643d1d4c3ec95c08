"""Build the Vela Health sample corpus deterministically: annual review, quarterly workbook, policy, chair letter.

Run ``python -m ragspine.samples.build_vela [--out DIR]``; without ``--out`` it rewrites the
committed copy in ``ragspine/samples/vela/``. Two builds give byte-identical files (the
manifest records their sha256 digests, which become the facts' lineage when ingested).
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import docx
import yaml
from openpyxl import Workbook

from ragspine.samples import vela_texts as texts
from ragspine.samples._ooxml import FIXED_TIMESTAMP, normalize_package

if TYPE_CHECKING:
    from docx.document import Document

SAMPLES_DIR = Path(__file__).resolve().parent / "vela"
REVIEW = "Vela_FY2025_Annual_Review.docx"
WORKBOOK = "Vela_Quarterly_Revenue_FY2025.xlsx"
POLICY = "Vela_Patient_Policy.md"
CHAIR_LETTER = "Vela_FY2025_Chair_Letter.pdf"
MANIFEST = "manifest.yaml"
AUTHOR = "Vela Health sample corpus"
# (file, title, language, sensitivity, library), in build order.
DOCUMENTS: tuple[tuple[str, str, str, str, str], ...] = (
    (REVIEW, texts.TITLE, "en", "INTERNAL", "reports"),
    (WORKBOOK, texts.WORKBOOK_TITLE, "en", "INTERNAL", "reports"),
    (POLICY, "Vela Patient Policy", "en", "PUBLIC", "policies"),
    (CHAIR_LETTER, texts.CHAIR_LETTER_TITLE, "en", "PUBLIC", "reports"),
)


def build_corpus(out_dir: Path) -> list[Path]:
    """Write every sample file and the manifest into ``out_dir``; return their paths in build order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    build_review(out_dir / REVIEW)
    build_workbook(out_dir / WORKBOOK)
    (out_dir / POLICY).write_text(texts.POLICY, encoding="utf-8", newline="\n")
    (out_dir / CHAIR_LETTER).write_bytes(text_pdf(texts.CHAIR_LETTER_TITLE, texts.CHAIR_LETTER))
    _write_manifest(out_dir)
    return [out_dir / name for name, *_ in DOCUMENTS] + [out_dir / MANIFEST]


def build_review(path: Path) -> None:
    """The annual review: basis of preparation, then one heading, caption, table and driver per entity."""
    document = docx.Document()
    props = document.core_properties
    props.title, props.author, props.last_modified_by = texts.TITLE, AUTHOR, AUTHOR
    props.revision, props.created, props.modified = 1, FIXED_TIMESTAMP, FIXED_TIMESTAMP
    document.add_heading(texts.TITLE, level=0)
    document.add_heading("Basis of preparation", level=1)
    document.add_paragraph(texts.FISCAL_YEAR_SENTENCE)
    document.add_paragraph(texts.UNIT_SENTENCE)
    for heading, caption, rows in texts.KEY_FIGURES:
        document.add_heading(heading, level=1)
        _add_table(document, caption, rows)
        document.add_paragraph(texts.DRIVERS[heading])
        if heading.startswith("Hospitals"):
            for site, site_caption, site_rows in texts.SITE_FIGURES:
                document.add_heading(site, level=2)
                _add_table(document, site_caption, site_rows)
    document.save(str(path))
    normalize_package(path)


def _add_table(document: Document, caption: str, rows: dict[str, tuple[str, str]]) -> None:
    document.add_paragraph(caption)
    table = document.add_table(rows=len(rows) + 1, cols=3)
    for column, header in enumerate(("Metric", "FY2024", "FY2025")):
        table.cell(0, column).text = header
    for row, (label, values) in enumerate(rows.items(), start=1):
        table.cell(row, 0).text = label
        for column, value in enumerate(values, start=1):
            table.cell(row, column).text = value


def build_workbook(path: Path) -> None:
    """The quarterly workbook: one sheet FY2025, divisions as rows, fiscal quarters as columns."""
    workbook = Workbook()
    sheet = workbook.worksheets[0]
    sheet.title = "FY2025"
    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy, props.created = texts.WORKBOOK_TITLE, AUTHOR, AUTHOR, \
        FIXED_TIMESTAMP
    sheet.append(["Division", "Q1", "Q2", "Q3", "Q4"])
    for division, values in texts.QUARTERLY_REVENUE.items():
        sheet.append([division, *(float(v) for v in values)])
    sheet.append([])
    sheet.append([texts.QUARTERLY_NOTE])
    workbook.save(str(path))
    normalize_package(path)


def text_pdf(title: str, lines: tuple[str, ...]) -> bytes:
    """A one-page PDF of text lines in Helvetica (written by hand: no PDF writer dependency needed)."""
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    shown = " T* ".join(f"({escape(line)}) Tj" for line in lines)
    stream = f"BT /F1 11 Tf 15 TL 72 770 Td {shown} ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        f"<< /Title ({escape(title)}) /Producer ({AUTHOR}) >>".encode("latin-1"),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _write_manifest(out_dir: Path) -> None:
    documents = [{"file": file, "title": title, "language": language, "sensitivity": sensitivity,
                  "library": library, "sha256": hashlib.sha256((out_dir / file).read_bytes()).hexdigest()}
                 for file, title, language, sensitivity, library in DOCUMENTS]
    text = yaml.safe_dump({"version": 1, "corpus": "Vela Health", "documents": documents},
                          allow_unicode=True, sort_keys=False, width=120)
    (out_dir / MANIFEST).write_text(text, encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    """Build the corpus from the command line and print the written paths."""
    parser = argparse.ArgumentParser(description="Build the Vela Health sample corpus.")
    parser.add_argument("--out", type=Path, default=SAMPLES_DIR, help="output folder (default: %(default)s)")
    for path in build_corpus(parser.parse_args(argv).out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
