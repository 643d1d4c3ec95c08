"""Writes the regex programs a first ask compiles (``shared/ragspine/config/regex_programs``), one file per interpreter.

Run ``python -m tools.regex_programs --python /path/to/python3.12 --python /path/to/python3.13`` after changing
a pattern of the engine's or the shipped domain (this interpreter's file is always written; each
``--python`` writes that interpreter's, which needs nothing installed). It records every pattern the
engine's own code hands to ``re`` while the ask handler is imported, configured as on AWS, and answers
its first questions (a figure asked in each of the three languages, from the sample facts in a
DynamoDB table on moto), then has each interpreter compile them.
``tests/integration/functions/test_ask_cold_start_work.py`` fails while a first ask reads a pattern the
file does not hold (it would be compiled at the cold start, as before).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from ragspine import regex_programs

REGENERATE = "python -m tools.regex_programs --python <python3.12> --python <python3.13>"
REPO_ROOT = Path(__file__).resolve().parents[1]
TABLE, BUCKET = "facts", "domain-bucket"
# A figure asked in each question language (None: the question of events/ask_found.json, a first ask's example).
FIRST_QUESTIONS = (None, "What was the revenue of ACME Japan in FY2024?", "2024年度の売上高はいくらですか")


# The child: records each pattern the engine's code hands to ``re`` (the first frame outside ``re`` is the
# engine's) while it imports the ask handler and answers the questions given, then prints them as JSON.
_RECORD_FIRST_ASKS = textwrap.dedent(
    """
    import json, re, sys
    met = {}
    compile_pattern = re._compile

    def recording(pattern, flags):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") == "re":
            frame = frame.f_back
        caller = frame.f_globals.get("__name__", "") if frame is not None else ""
        if isinstance(pattern, str) and caller.startswith("ragspine."):
            met.setdefault((pattern, int(flags)), None)
        return compile_pattern(pattern, flags)

    re._compile = recording
    import functions.ask.app as app
    from tests.support.ask_child import ask

    answered = [ask(app, question or None) for question in sys.argv[1:]]
    re._compile = compile_pattern
    print(json.dumps({"routes": [[status, body.get("route")] for status, body in answered], "patterns": list(met)}))
    """
)


def first_ask_patterns() -> list[tuple[str, int]]:
    """The (text, flags) of each pattern the engine hands to ``re`` while the ask handler, in a fresh
    interpreter configured as on AWS, is imported and answers ``FIRST_QUESTIONS``, in the order first met."""
    from tests.support.ask_aws import sample_fact_table  # noqa: PLC0415 (moto: a development dependency)
    from tests.support.ask_child import run_child  # noqa: PLC0415

    with sample_fact_table(TABLE, BUCKET) as url:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'shared'}",
               "LAMBDA_TASK_ROOT": str(REPO_ROOT), "RAGSPINE_BACKEND": "aws", "RAGSPINE_FACTS_TABLE": TABLE,
               "RAGSPINE_DOMAIN_SOURCE": f"s3://{BUCKET}/company-domain.json", "AWS_ENDPOINT_URL": url,
               "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}
        outcome = run_child(_RECORD_FIRST_ASKS, *(question or "" for question in FIRST_QUESTIONS), env=env)
    if any(route != [200, "structured"] for route in outcome["routes"]):
        raise SystemExit(f"a question was not answered from the facts: {outcome['routes']}")
    return [(pattern, flags) for pattern, flags in outcome["patterns"]]


def programs_of(python: str, patterns: list[tuple[str, int]]) -> dict[str, Any]:
    """``python``'s programs of ``patterns``, computed by that interpreter running ``regex_programs.py``."""
    done = subprocess.run([python, "-I", "-P", regex_programs.__file__], input=json.dumps(patterns),
                          capture_output=True, text=True, check=True)
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def main(argv: list[str] | None = None) -> None:
    """Record the first ask's patterns and write each interpreter's programs of them."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--python", action="append", default=[], help="another interpreter to write for (repeatable)")
    args = parser.parse_args(argv)
    patterns = first_ask_patterns()
    regex_programs.PROGRAMS_DIR.mkdir(parents=True, exist_ok=True)
    for python in [sys.executable, *args.python]:
        document = programs_of(python, patterns)
        path = regex_programs.PROGRAMS_DIR / regex_programs.programs_name(document["python"], document["compiler"])
        path.write_text(json.dumps(document, indent=1) + "\n", encoding="ascii")  # a class may name a lone surrogate
        print(f"{path}: {len(document['patterns'])} patterns")


if __name__ == "__main__":
    main()
