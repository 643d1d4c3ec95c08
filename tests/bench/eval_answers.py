"""Run an evaluation command and keep every answer it got, to diff two versions of the question path.

``same_answers.py`` asks the evaluation sets' questions over the bench's fact file; the table
evaluations (TAT-QA tables and arithmetic, jfinqa) ask theirs over facts their own documents
became, through ``answer_question`` inside the command. This runs such a command unchanged and
writes each answer it got (the question, the whole result except the trace's timings, the
trace's decisions) as one JSON line, in the order asked. Run it on the code before a change and
after it, then ``--compare``: a speed change must leave every line as it was.

    .venv/bin/python tests/bench/eval_answers.py --out before.jsonl tests.eval.tatqa_tables [ARGS...]
    .venv/bin/python tests/bench/eval_answers.py --compare before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "shared"), str(REPO)]

from ragspine.llm.chat import Message  # noqa: E402
from ragspine.qa import answer  # noqa: E402
from ragspine.qa.answer import QAComponents  # noqa: E402
from ragspine.qa.result import AnswerResult  # noqa: E402


def record(module: str, args: Sequence[str], sink: IO[str]) -> None:
    """Run ``python -m module args`` in this process; every ``answer_question`` it makes is written to ``sink``.

    The command imports ``answer_question`` from ``ragspine.qa.answer`` (at its top or inside a
    function), so the module's function is swapped for one that calls it and writes the result.
    """
    asked = answer.answer_question

    def answered(question: str, *, qa: QAComponents, history: Sequence[Message] = ()) -> AnswerResult:
        result = asked(question, qa=qa, history=history)
        line = {"question": question, "result": repr(dataclasses.replace(result, trace={})),
                "decisions": result.trace.get("decisions")}
        sink.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        return result

    answer.answer_question = answered
    argv = sys.argv
    sys.argv = [module, *args]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sys.argv = argv
        answer.answer_question = asked


def compare(before: Path, after: Path) -> tuple[int, list[str]]:
    """How many answers both files hold, and the question of each that differs (or the count, when it does)."""
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    differ = [json.loads(a)["question"] for a, b in zip(old, new, strict=False) if a != b]
    if len(old) != len(new):
        differ.append(f"{len(old)} answers before, {len(new)} after")
    return min(len(old), len(new)), differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", type=Path, help="run the command below and write its answers here (JSON lines)")
    group.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="diff two such files")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the evaluation module and its arguments")
    args = parser.parse_args(argv)
    if args.out is not None:
        if not args.command:
            parser.error("--out needs the evaluation module to run, e.g. tests.eval.tatqa_tables")
        with args.out.open("w", encoding="utf-8") as sink:
            record(args.command[0], args.command[1:], sink)
        print(f"answers written to {args.out}", file=sys.stderr)
        return 0
    compared, differ = compare(*args.compare)
    for question in differ[:50]:
        print(f"differs: {question[:120]!r}")
    print(f"{compared:,} answers compared, {len(differ)} differences")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
