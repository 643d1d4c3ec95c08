"""jfinqa lite: facts per Japanese statement table, with the company and period stated in the sentence before it.

Each of the 150 items is written as a Markdown document (the sentence before the table, the
table, the sentence after) and read by the real parser and table reader, under a glossary
from ``ragspine domain init`` edited as a user tracking that company would: the company an
entity, each line item a metric (the glossary has no open vocabulary yet), JPY millions,
fiscal years ending in March. Expected: one fact per line item and period column, the
entity the company, the period from the header or (for ``項目 | 金額(百万円)``) from the
sentence, the value as the cell writes it. Reported: tables read completely, facts expected,
found and wrong (a fact whose key or value is not expected).

    .venv/bin/python tests/eval/jfinqa_tables.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT))  # tests.eval and tools, when run as a file

from ragspine.domain.starter import init_domain  # noqa: E402
from ragspine.facts.glossary import Glossary  # noqa: E402
from ragspine.ingestion.facts_extract import extract_facts  # noqa: E402
from ragspine.ingestion.parsers.registry import parse_document  # noqa: E402
from ragspine.numbers.cells import read_cell  # noqa: E402
from tests.eval import recorded  # noqa: E402

JFINQA = ROOT.parent / "shared" / "corpus" / "qa" / "jfinqa" / "jfinqa_lite_v1.json"
_PERIOD = re.compile(r"(\d{4})年\d{1,2}月期")


def _glossary(base: dict[str, Any], item: dict[str, Any]) -> Glossary:
    raw = dict(base)
    raw["currency"], raw["fiscal_year"] = "JPY", {"end_month": 3, "named_by": "end"}
    raw["units"] = {"JPY_M": {"names": {"ja": "百万円"}, "currency": "JPY"}, "PCT": {"names": {"en": "percent"}}}
    raw["entities"] = {"COMPANY": {"names": {"ja": item["company_name"]}, "aliases": [item["company_name"]]}}
    raw["home_entity"] = "COMPANY"
    raw["metrics"] = {f"M{i}": {"unit": "JPY_M", "names": {"ja": row[0]}, "aliases": [row[0]]}
                      for i, row in enumerate(item["table"]["rows"])}
    return Glossary.from_mapping(raw)


def _markdown(item: dict[str, Any]) -> bytes:
    headers, rows = item["table"]["headers"], item["table"]["rows"]
    lines = [*item["pre_text"], "", "| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join([*lines, "", *item["post_text"]]).encode()


def _expected(item: dict[str, Any]) -> set[tuple[str, str, str, float]]:
    headers, rows = item["table"]["headers"], item["table"]["rows"]
    stated = _PERIOD.search(" ".join(item["pre_text"]))
    periods = [(_PERIOD.search(h) or stated) for h in headers[1:]]
    found = set()
    for i, row in enumerate(rows):
        for period, cell in zip(periods, row[1:], strict=False):
            number = read_cell(str(cell))
            if number is not None and period is not None:
                found.add((f"M{i}", "COMPANY", period.group(1), float(number.value)))
    return found


def run() -> dict[str, Any]:
    items = json.loads(JFINQA.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        init_domain(Path(tmp) / "d")
        base = yaml.safe_load((Path(tmp) / "d" / "glossary.yaml").read_text(encoding="utf-8"))
    totals = {"tables": len(items), "complete": 0, "expected": 0, "found": 0, "wrong": 0}
    wrong: list[str] = []
    for item in items:
        name = f"{item['id']}.md"
        doc = parse_document(_markdown(item), filename=name, doc_id=name, max_bytes=10_000_000)
        facts = extract_facts(doc, glossary=_glossary(base, item), source_file_hash="sha256:0").facts
        got = {(f.metric_code, f.entity, f.period, float(f.value)) for f in facts}
        expected = _expected(item)
        totals["expected"] += len(expected)
        totals["found"] += len(got & expected)
        totals["wrong"] += len(got - expected)
        totals["complete"] += got == expected
        wrong += [f"{item['id']}: {fact}" for fact in sorted(got - expected)][:3]
    return {**totals, "wrong_examples": wrong[:10]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", type=Path, default=None)
    recorded.add_record_flag(parser)
    args = parser.parse_args()
    report = run()
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    if args.record:
        recorded.write("jfinqa-tables", recorded.jfinqa_tables_table(report), "python tests/eval/jfinqa_tables.py --record")


if __name__ == "__main__":
    main()
