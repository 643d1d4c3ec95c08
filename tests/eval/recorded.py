"""The tables the table and derived-figure evaluations record into docs/evaluation.md (``--record``).

Each function turns one command's report into the Markdown lines of its measured section; the
command writes them with ``tools.measurements.record``. A run over a subset (``--limit``, named
filings) measures something else than the published figure, so it cannot record.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tools.measurements import EVALUATION, record, record_note


def _rate(part: int, whole: int) -> str:
    return f"{part} ({part / whole:.3f})" if whole else str(part)


def tatqa_tables_table(report: Mapping[str, Any]) -> list[str]:
    """TAT-QA dev table-cell questions: exact, wrong, not found, overall and per half of the contexts."""
    n = int(report["table_cell_questions"])
    lines = [f"{report['contexts']} contexts, {report['facts']:,} facts stored, {n} questions whose answer is "
             f"one table cell; glossary {report['glossary']}.", "",
             "| questions | exact | of them computed changes | wrong | not found |", "| --- | --- | --- | --- | --- |",
             f"| all ({n}) | {_rate(report['exact'], n)} | {report['exact_computed']} | "
             f"{_rate(report['wrong'], n)} | {report['not_found']} |"]
    for name, half in report["halves_by_context"].items():
        lines.append(f"| {name} ({half['questions']}) | {half['exact']} | | {half['wrong']} | {half['not_found']} |")
    return lines


def tatqa_arithmetic_table(report: Mapping[str, Any]) -> list[str]:
    """TAT-QA dev arithmetic and count questions: exact, right with no unit stated, wrong, abstained."""
    n = int(report["questions"])
    return [f"{report['contexts']} contexts, {n} arithmetic and count questions; glossary {report['glossary']}.", "",
            "| exact | of them, the other reading the answer states | right, unit not stated | wrong | abstained |",
            "| --- | --- | --- | --- | --- |",
            f"| {_rate(report['exact'], n)} | {report.get('exact_by_other_reading', 0)} | "
            f"{report['unit_not_stated']} | {_rate(report['wrong'], n)} | {report['abstained']} |"]


def jfinqa_tables_table(report: Mapping[str, Any]) -> list[str]:
    """jfinqa lite statements read as facts: expected facts found, wrong facts, items complete."""
    return ["| expected facts | found | wrong facts | items read completely |", "| --- | --- | --- | --- |",
            f"| {report['expected']:,} | {report['found']:,} | {report['wrong']} | {report['complete']} |"]


def jfinqa_derived_table(report: Mapping[str, Any]) -> list[str]:
    """jfinqa lite questions per run and subtask: correct, wrong, abstained."""
    lines = ["| run | part | questions | correct | wrong | abstained |", "| --- | --- | --- | --- | --- | --- |"]
    for run, summary in report.items():
        parts = [(k, v) for k, v in summary.items() if k not in ("halves", "wrong")]
        parts += [(f"half: {k}", v) for k, v in summary["halves"].items()]
        for part, c in parts:
            lines.append(f"| {run} | {part} | {c['n']} | {c['correct']} ({c['correct_rate']:.3f}) | "
                         f"{c['wrong']} ({c['wrong_rate']:.3f}) | {c['abstained']} |")
    return lines


def financebench_metrics_table(report: Mapping[str, Any]) -> list[str]:
    """FinanceBench metrics-generated questions: correct, wrong, abstained."""
    return [f"{report['questions']} questions over {report['documents']} filings.", "",
            "| correct | wrong | abstained |", "| --- | --- | --- |",
            f"| {report['correct']} | {report['wrong']} | {report['abstained']} |"]


def financebench_statements_table(counts: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Statement pages of the FinanceBench filings: tables, tables whose every cell matched the page text, facts, warnings."""
    lines = ["| filing | tables | every cell matched the page text | facts | warnings |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {name} | {c['tables']} | {c['checked']} | {c['facts']:,} | {c['warnings']} |"
              for name, c in counts.items()]
    total = {k: sum(c[k] for c in counts.values()) for k in ("tables", "checked", "facts", "warnings")}
    lines.append(f"| **all {len(counts)}** | {total['tables']:,} | {total['checked']:,} | {total['facts']:,} | "
                 f"{total['warnings']:,} |")
    return lines


def add_record_flag(parser: argparse.ArgumentParser) -> None:
    """``--record``: write the run's table into its section of docs/evaluation.md."""
    parser.add_argument("--record", action="store_true",
                        help="write the table into its measured section of docs/evaluation.md (whole set only)")


def refuse_partial(parser: argparse.ArgumentParser, record_asked: bool, partial: bool) -> None:
    """Exit with a usage error when ``--record`` is asked of a run over part of the set."""
    if record_asked and partial:
        parser.error("--record writes the published figure: run the whole set (no --limit, no named subset)")


def write(section: str, lines: Sequence[str], command: str) -> None:
    """Record ``lines`` into ``section`` and say so on stderr."""
    record(section, lines, command=command)
    print(record_note(EVALUATION, section), file=sys.stderr)
