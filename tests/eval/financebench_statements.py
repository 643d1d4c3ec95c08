"""FinanceBench 10-K filings: facts per filing from the PDF reader, and a sample to check by hand.

Each filing of ``financebench_dev`` is read by the shipped PDF parser and its tables by the
shipped table reader, under a domain folder fresh from ``ragspine domain init`` with
``include: [finance]`` and its currency set to USD (a user of 10-K filings would set it).
Reported per filing: the tables the reader found, how many check out against the page text,
the facts and the warnings. ``--sample N`` draws N facts at random (``--seed``) and prints each
with the lines of its page that hold years and that start with its row label, so the figure,
its period and its unit can be checked against the filing's own text.

    .venv/bin/python tests/eval/financebench_statements.py [--sample 30 --seed 2026] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT))  # tests.eval and tools, when run as a file

from ragspine.domain.files import GLOSSARY  # noqa: E402
from ragspine.domain.glossary_file import read_glossary  # noqa: E402
from ragspine.domain.starter import init_domain  # noqa: E402
from ragspine.facts.glossary import Glossary  # noqa: E402
from ragspine.facts.model import Fact  # noqa: E402
from ragspine.ingestion.facts_extract import extract_facts  # noqa: E402
from ragspine.ingestion.parsers.pdf import PdfParser  # noqa: E402
from tests.eval import recorded  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "financebench_dev"
_YEAR = re.compile(r"\b(19|20)\d\d\b")


def finance_glossary(root: Path) -> Glossary:
    """``ragspine domain init`` plus ``include: [finance]``, the currency USD."""
    folder = root / "domain"
    init_domain(folder)
    (folder / "domain.yaml").write_text(
        (folder / "domain.yaml").read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    glossary = folder / GLOSSARY
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("EUR", "USD"), encoding="utf-8")
    return read_glossary(glossary)


def run(names: list[str]) -> tuple[dict[str, dict[str, int]], list[tuple[str, Fact]]]:
    """Per filing: tables, tables checking out, facts, warnings; and every fact with its filing."""
    with tempfile.TemporaryDirectory() as tmp:
        glossary = finance_glossary(Path(tmp))
    counts: dict[str, dict[str, int]] = {}
    facts: list[tuple[str, Fact]] = []
    for name in names:
        doc = PdfParser().parse((CORPUS / name).read_bytes(), doc_id=name)
        result = extract_facts(doc, glossary=glossary, source_file_hash="sha256:0")
        tables = [b for b in doc.blocks if b.rows]
        counts[name] = {"tables": len(tables), "checked": sum(1 for b in tables if not b.cell_check),
                        "facts": len(result.facts), "warnings": len(result.warnings)}
        facts += [(name, fact) for fact in result.facts]
        print(name, counts[name], flush=True)
    return counts, facts


def show(name: str, fact: Fact) -> str:
    """The fact and the lines of its page that hold years or start with its row label."""
    import pypdfium2 as pdfium

    from ragspine.ingestion.parsers.pdf_lines import page_lines

    page = int(re.match(r"page=(\d+)", fact.source_locator).group(1))  # type: ignore[union-attr]
    label = re.search(r"row=([^,]*)", fact.source_locator)
    row = (label.group(1).split("/")[-1] if label else "").rpartition(": ")[2]  # the row under its section
    key = " ".join(row.split()[:3]).replace(",", "")[:25]
    document = pdfium.PdfDocument(str(CORPUS / name))
    try:
        lines = [line.text for line in page_lines(document[page - 1].get_textpage())]
    finally:
        document.close()
    out = [f"## {name} {fact.metric_code} | {fact.entity} | {fact.period} | {fact.value} {fact.unit} | "
           f"{fact.source_locator}"]
    out += [f"   years: {t}" for t in lines if _YEAR.search(t) and len(t) < 90]
    out += [f"   row:   {t}" for t in lines if key and t.replace(",", "").startswith(key)]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=0, help="facts drawn at random to check by hand")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the counts here")
    parser.add_argument("names", nargs="*", help="filings (default: every PDF of the corpus)")
    recorded.add_record_flag(parser)
    args = parser.parse_args()
    recorded.refuse_partial(parser, args.record, bool(args.names))
    if not CORPUS.is_dir():
        raise SystemExit(f"{CORPUS} is absent: the shared corpus is not mounted here")
    counts, facts = run(args.names or sorted(p.name for p in CORPUS.glob("*.pdf")))
    total: dict[str, Any] = {key: sum(c[key] for c in counts.values()) for key in ("tables", "checked", "facts")}
    print("all:", total)
    random.Random(args.seed).shuffle(facts)
    for name, fact in facts[:args.sample]:
        print(show(name, fact))
    if args.json:
        args.json.write_text(json.dumps({"filings": counts, "all": total}, indent=2), encoding="utf-8")
    if args.record:
        recorded.write("financebench-statements", recorded.financebench_statements_table(counts),
                       "python tests/eval/financebench_statements.py --record")


if __name__ == "__main__":
    main()
