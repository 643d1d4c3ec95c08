"""Build the ACME sample corpus deterministically: documents, facts and manifest (and the domain's FAQ).

Run ``python -m ragspine.samples.build_acme [--out DIR]``; without ``--out`` it rewrites
the committed copy in ``ragspine/samples/acme/`` and the FAQ of ``ragspine/shipped_domains/acme/``.
Two builds give byte-identical files, because the files' sha256 digests are the lineage that
facts.csv and manifest.yaml record.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from ragspine.samples import _layout
from ragspine.samples._catalog import DOCUMENTS, write_faq, write_manifest
from ragspine.samples._docx import build_board_minutes, build_mda
from ragspine.samples._facts import curated_facts, write_facts
from ragspine.samples._pptx import build_review_deck
from ragspine.samples._texts import JP_REPORT, PRODUCT_POLICY
from ragspine.samples._xlsx import build_quarterly_workbook

SAMPLES_DIR = Path(__file__).resolve().parent / "acme"
"""The committed copy of the built corpus, shipped inside the package."""
DOMAIN_DIR = Path(__file__).resolve().parents[1] / "shipped_domains" / "acme"
"""The ACME domain folder, whose faq.yaml quotes sentences of the built documents."""


def build_corpus(out_dir: Path) -> list[Path]:
    """Write every sample file into ``out_dir`` and return their paths in build order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for year, name in _layout.REVIEW_DECKS.items():
        build_review_deck(out_dir / name, year)
    build_quarterly_workbook(out_dir / _layout.QUARTERLY_WORKBOOK)
    for year, name in _layout.MDA_DOCS.items():
        build_mda(out_dir / name, year)
    _write_text(out_dir / _layout.JP_REPORT, JP_REPORT)
    _write_text(out_dir / _layout.PRODUCT_POLICY, PRODUCT_POLICY)
    build_board_minutes(out_dir / _layout.BOARD_MINUTES)
    # The catalogue files come last: they record the digests of the files written above.
    hashes = {name: file_sha256(out_dir / name) for name, *_ in DOCUMENTS}
    write_facts(out_dir / _layout.FACTS_FILE, curated_facts(hashes))
    write_manifest(out_dir / _layout.MANIFEST_FILE, hashes)
    names = [name for name, *_ in DOCUMENTS] + [_layout.MANIFEST_FILE, _layout.FACTS_FILE]
    return [out_dir / name for name in names]


def file_sha256(path: Path) -> str:
    """Return the sha256 hex digest of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_text(path: Path, text: str) -> None:
    """Write UTF-8 text with "\\n" line ends whatever the platform."""
    path.write_text(text, encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    """Build the corpus from the command line and print the written paths."""
    parser = argparse.ArgumentParser(description="Build the ACME sample corpus.")
    parser.add_argument("--out", type=Path, default=SAMPLES_DIR, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    for path in build_corpus(args.out):
        print(path)
    faq = (DOMAIN_DIR if args.out == SAMPLES_DIR else args.out) / _layout.FAQ_FILE
    write_faq(faq)
    print(faq)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
