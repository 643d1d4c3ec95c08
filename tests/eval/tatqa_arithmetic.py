"""TAT-QA dev arithmetic and count questions through the structured channel, scored by TAT-QA's own EM with scale.

Each of the 278 contexts is ingested the way ``tatqa_tables.py`` does it (the README path: a domain
folder from ``ragspine domain init``, the table and its paragraphs one Markdown file, ``ragspine
ingest`` into its own data folder), fresh (``--open``) or with each row label listed as a metric;
then every question whose ``answer_type`` is ``arithmetic`` or ``count`` is asked through
``answer_question``.

The figure read from the answer is the one the question asks for: the percent of a change line
for a percentage change, the signed amount of a change line for a change, else the first computed
line (``计算自``: an average, a sum, a ratio). Its scale is the unit the answer states (``USD_K``
thousand, ``USD_M`` million, ``USD_B`` billion, a scale stated without a currency the same (``K``
thousand, ``M`` million, ``B`` billion), ``%``/``PCT`` percent, none ""). TAT-QA's EM then
compares ``'%.4f' % (round(x, 2) * scale)`` of both sides (``tatqa_metric.py``), so a figure in
the wrong scale or with the wrong sign is not exact. The right number in an answer that states no
unit (the document states none the reader recognises) is counted apart as ``unit_not_stated``; any
other figure is wrong; an answer with no figure of that kind abstains.

    .venv/bin/python -m tests.eval.tatqa_arithmetic [--open] [--limit N] [--json PATH] [--kinds]

``--kinds`` prints the abstentions counted by what the answer says it could not do (``abstention_kinds``)
and every wrong answer, instead of the whole report.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from tests.eval import recorded
from tests.eval.abstention_kinds import abstention_kind, tally
from tests.eval.tatqa_tables import TATQA, ingest_context

ASKED_TYPES = ("arithmetic", "count")
SCALES = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 0.01}
_UNIT_SCALE = {"K": "thousand", "TH": "thousand", "M": "million", "MN": "million", "B": "billion", "BN": "billion"}
# A unit as the answer writes it: a money code ("USD_K"), a scale stated without a currency ("K": the
# document says "in thousands" and names no currency), percent or points.
_UNIT = r"(?:[A-Z]{3}(?:_[0-9A-Z]+)?|PCT|points|TIMES|K|TH|MN|M|BN|B)(?![A-Za-z_])"
_PERCENT_CHANGE = re.compile(r"percent(?:age)?\s+(?:change|increase|decrease|growth)|%\s*change|growth rate|"
                             r"percent(?:age)? (?:increase|decrease|difference)")
_CHANGE = re.compile(r"(?<![a-z])(?:change|increase|decrease|difference|growth)(?![a-z])")
# "FY2019 vs FY2018 down 21 USD_K（−0.3%）"
_CHANGE_LINE = re.compile(r"(?: vs | 较 | は .* 比 )\S+ (up|down|unchanged|增加|减少|持平|増加|減少|横ばい) "
                          rf"([\d.,]+)(?: ({_UNIT}))? ?(?:（([+−±])([\d.]+)%）)?")
_ROW_NAME = re.compile(r"\(label:([^()]+)\)")
_DIFFERENCE = re.compile(r"(?<![a-z])differ(?:ence|ent)?(?![a-z])")
_SIGNED = re.compile(r"(?<![a-z])(?:change|increase|decrease)(?![a-z])")
# "How much did X decrease by": the size of the move in the direction named (a fall of 1 is 1), not a signed change
_MOVED_BY = re.compile(r"(?<![a-z])(increase|decrease|rise|fall|drop)(?:d|s)?\s+by(?![a-z])")
_BY_SIZE = re.compile(r"by size (up|down) ")
# "difference between A and B: 1903 USD_K (A below B)": the size, and the side that makes the signed A − B
_ROW_GAP = re.compile(rf"difference between (.+?) and (.+?): ([\d.,]+)(?: ({_UNIT}))? \(\1 (above|below) \2\)")
# an average or a sum of figures all written as negatives: the signed figure, then "by size"
_MEAN_BY_SIZE = re.compile(rf"; all are written as negatives, so by size ([\d,.]+) ?({_UNIT})?")
# a part of a whole written as a negative ("shares vested" in brackets): its share by size
_PART_BY_SIZE = re.compile(rf" is written as a negative, so by size ([\d,.]+) ?(%|{_UNIT})?")
# a multiple over a statement's rows stated with its percent beside it ("0.78 TIMES (78.28%)")
_MULTIPLE_PERCENT = re.compile(r" TIMES [(（]([\d,.]+)%[)）]")
_COMPUTED = re.compile(rf"[：:]\s*([−-]?[\d,]+(?:\.\d+)?)\s*(%|{_UNIT})?\s*(?:[（(]|$)")


def scale_of(unit: str | None) -> str:
    """TAT-QA's scale word for an answer's unit."""
    if not unit:
        return ""
    if unit in ("%", "PCT", "points"):
        return "percent"
    if unit in _UNIT_SCALE:  # a scale without a currency: "K" is thousands
        return _UNIT_SCALE[unit]
    _, _, scale = unit.partition("_")
    return _UNIT_SCALE.get(scale, "")


def exact(pred: float, pred_scale: str, gold: float, gold_scale: str) -> bool:
    """TAT-QA's EM for a number: both sides rounded to two places times their scale; a bare number also as is."""
    want = f"{round(gold, 2) * SCALES[gold_scale]:.4f}"
    said = {f"{round(pred, 2) * SCALES[pred_scale]:.4f}"}
    if not pred_scale:
        said.add(f"{pred:.4f}")
    return want in said


def judge(figure: tuple[float, str] | None, gold: float, gold_scale: str) -> str:
    """exact (TAT-QA's EM with scale), unit_not_stated (the right number, but the answer states no unit
    where TAT-QA has a scale: not exact by TAT-QA's EM, not a wrong figure either), wrong, or abstained."""
    if figure is None:
        return "abstained"
    if exact(figure[0], figure[1], gold, gold_scale):
        return "exact"
    if not figure[1] and gold_scale and round(figure[0], 2) == round(gold, 2):
        return "unit_not_stated"
    return "wrong"


def read_figure(question: str, answer: str) -> tuple[float, str] | None:
    """The figure the answer gives for ``question`` and its scale, or None when it gives none of that kind."""
    lines = [line for line in answer.splitlines() if "（来源：" in line or "（计算自：" in line]
    text = question.lower()
    for name in set(_ROW_NAME.findall(answer)):  # "net change in cash balance" names a row, it asks no change
        text = text.replace(name, " ")
    if _PERCENT_CHANGE.search(text) or _CHANGE.search(text):
        for line in lines:
            match = _CHANGE_LINE.search(line)
            if match is None:
                continue
            down = match.group(1) in ("down", "减少", "減少")
            if _PERCENT_CHANGE.search(text):
                if match.group(5) is None:
                    return None
                sign = -1 if match.group(4) == "−" else 1
                return sign * float(match.group(5)), "percent"
            value = float(match.group(2).replace(",", ""))
            if _DIFFERENCE.search(text) and not _SIGNED.search(text):
                return value, scale_of(match.group(3))  # "the difference between": its size
            moved = _MOVED_BY.search(text)
            if moved is not None:  # "decrease by": a fall is counted up, a rise against it
                return (-value if down != (moved.group(1) in ("decrease", "fall", "drop")) else value), \
                    scale_of(match.group(3))
            return (-value if down else value), scale_of(match.group(3))
    for line in lines:
        if "计算自" not in line:
            continue
        match = _COMPUTED.search(line)
        if match is not None:
            return float(match.group(1).replace(",", "").replace("−", "-")), scale_of(match.group(2))
    return None


_BETTER = ("exact", "unit_not_stated", "wrong", "abstained")


def stated_reading(question: str, answer: str) -> tuple[float, str] | None:
    """The other reading a change line states of a word the question leaves open, else None.

    "the difference between X in 2018 and 2019" names no direction: the line's size ("down 835",
    read first) and its signed change (−835) are both said. "the percentage change in the WACC"
    of two rates: the line states the change in points ("down 0.5 points") beside the relative
    change ("−5.26%", read first). "the change in voyage expenses" of two figures written as
    negatives: the signed change ("up 6850", read first) and the change by size ("by size down
    6850"); an average or a sum of such figures: signed ("−615") and by size ("by size 615"); a part written as a
    negative over its whole: signed ("−28.46%") and by size ("so by size 28.46%"); the difference between two
    rows of one period: its size and the side ("1903 (A below B)"), so the signed A − B (−1903); a ratio over a
    statement's rows: its multiple ("0.78 TIMES", read first) and its percent ("(78.28%)"); "the change in X"
    without "percentage": the change in X's unit ("up 5 USD_K", read first) and the relative change the line
    states beside it ("(+11.36%)"). TAT-QA's golds
    take either reading; the answer states both,
    so either is the figure it gives.
    """
    text = question.lower()
    for name in set(_ROW_NAME.findall(answer)):
        text = text.replace(name, " ")
    for line in answer.splitlines():
        if "（计算自：" not in line:
            continue
        multiple = _MULTIPLE_PERCENT.search(line)
        if multiple is not None and not _CHANGE.search(text):
            return float(multiple.group(1).replace(",", "")), "percent"
        match = _CHANGE_LINE.search(line)
        gap = _ROW_GAP.search(line)
        if match is None and gap is not None and _DIFFERENCE.search(text):
            value = float(gap.group(3).replace(",", ""))
            return (-value if gap.group(5) == "below" else value), scale_of(gap.group(4))
        if match is None:
            mean = _MEAN_BY_SIZE.search(line) or _PART_BY_SIZE.search(line)
            if mean is not None and not _PERCENT_CHANGE.search(text) and not _CHANGE.search(text):
                return float(mean.group(1).replace(",", "")), scale_of(mean.group(2))
            continue
        down = match.group(1) in ("down", "减少", "減少")
        value = float(match.group(2).replace(",", ""))
        if _PERCENT_CHANGE.search(text):
            return ((-value if down else value), "percent") if match.group(3) == "points" else None
        if _DIFFERENCE.search(text) and not _SIGNED.search(text):
            return (-value if down else value), scale_of(match.group(3))
        by_size = _BY_SIZE.search(line)
        if by_size is not None and _SIGNED.search(text):
            return (-value if by_size.group(1) == "down" else value), scale_of(match.group(3))
        if match.group(5) is not None and _SIGNED.search(text):  # "the change in X": the relative change beside it
            return (-1 if match.group(4) == "−" else 1) * float(match.group(5)), "percent"
        return None
    return None


def run(limit: int | None, *, open_vocabulary: bool = False) -> dict[str, Any]:
    """Each context through ``ragspine ingest`` into its own folders; every arithmetic and count question asked."""
    from typer.testing import CliRunner

    from ragspine.qa.answer import answer_question

    contexts = json.loads(TATQA.read_text(encoding="utf-8"))[:limit]
    counts: Counter[str] = Counter()
    by_type: dict[str, Counter[str]] = {}
    examples: dict[str, list[dict[str, Any]]] = {"wrong": [], "unit_not_stated": [], "abstained": []}
    runner = CliRunner()
    verdicts: list[list[Any]] = []  # [context index, question, verdict] of every question: runs compared one by one
    os.environ.update({"RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": "2026-11-30", "RAGSPINE_ENV": "test"})
    with tempfile.TemporaryDirectory() as tmp:
        for index, context in enumerate(contexts):
            questions = [q for q in context["questions"] if q["answer_type"] in ASKED_TYPES]
            if not questions:
                continue
            services = ingest_context(Path(tmp) / f"c{index}", index, context, open_vocabulary=open_vocabulary,
                                      runner=runner)
            table_facts = services.facts.count()
            for question in questions:
                text = str(question["question"])
                result = answer_question(text, qa=services.qa)
                figure = read_figure(text, result.answer)
                gold = float(question["answer"])
                verdict = judge(figure, gold, str(question["scale"]))
                other = judge(stated_reading(text, result.answer), gold, str(question["scale"]))
                if _BETTER.index(other) < _BETTER.index(verdict):
                    verdict = other
                    counts[f"{other}_by_other_reading"] += 1  # counted under the verdict, and shown apart
                counts[verdict] += 1
                verdicts.append([index, text, verdict])
                by_type.setdefault(question["answer_type"], Counter())[verdict] += 1
                bucket = examples.get(verdict)
                if bucket is not None:  # every miss kept: a run's JSON lists each wrong answer and abstention
                    bucket.append({"context": index, "question": text, "gold": f"{question['answer']} {question['scale']}".strip(),
                                   "derivation": question.get("derivation", ""),
                                   "said": None if figure is None else f"{figure[0]} {figure[1]}".strip(),
                                   "answer": result.answer[:900]})
                    if verdict == "abstained":
                        bucket[-1]["kind"] = abstention_kind(text, result.answer, table_facts)
    n = sum(counts[v] for v in _BETTER) or 1
    return {"glossary": "fresh from domain init" if open_vocabulary else "each table's row labels listed",
            "contexts": len(contexts), "questions": n,
            "exact": counts["exact"], "exact_by_other_reading": counts["exact_by_other_reading"],
            "unit_not_stated": counts["unit_not_stated"], "wrong": counts["wrong"],
            "abstained": counts["abstained"], "exact_rate": round(counts["exact"] / n, 3),
            "wrong_rate": round(counts["wrong"] / n, 3), "by_type": {k: dict(v) for k, v in by_type.items()},
            "abstained_by_kind": tally(examples["abstained"]),
            "examples": examples, "verdicts": verdicts}


def kinds_text(report: dict[str, Any]) -> str:
    """The abstentions counted by kind, then each wrong answer: what a run leaves to do."""
    lines = [f"{report['abstained']} abstained, by kind:"]
    lines += [f"  {count:4d}  {kind}" for kind, count in report["abstained_by_kind"].items()]
    lines.append(f"{report['wrong']} wrong:")
    lines += [f"  context {e['context']}: {e['question']} gold {e['gold']}, said {e['said']}"
              for e in report["examples"]["wrong"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--open", action="store_true", help="the glossary fresh from domain init, unedited")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--kinds", action="store_true",
                        help="print the abstentions by kind and the wrong answers, not the whole report")
    recorded.add_record_flag(parser)
    args = parser.parse_args(argv)
    recorded.refuse_partial(parser, args.record, args.limit is not None or not args.open)
    report = run(args.limit, open_vocabulary=args.open)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(kinds_text(report) if args.kinds else text)
    if args.record:
        recorded.write("tatqa-arithmetic", recorded.tatqa_arithmetic_table(report),
                       "python -m tests.eval.tatqa_arithmetic --open --record")


if __name__ == "__main__":
    main()
