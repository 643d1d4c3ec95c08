"""How well deterministic screening stops jailbreaks, and how often it refuses a legitimate question.

Jailbreaks: ``../shared/corpus/injection/jailbreak_dev.json`` (510 in-the-wild prompts and 14
of the DAN family, English). Each prompt falls in the tuning or the held-out part by a hash
of its text (``split_of``): about 40% are held out, and the rules were written looking only
at the tuning part. Legitimate questions: the ACME evaluation questions, FinanceBench,
TAT-QA, CMRC2018, JSQuAD and jfinqa, every question of each file.

A refusal for injection, prompt extraction or a secret is this screen's false refusal; an
off-topic or competitor refusal of a question about another company is the scope screen's
(reported apart, it depends on the configured domain). Run ``python -m tests.eval.screening_eval``
for the table; ``--record`` also writes it into docs/evaluation.md (section ``screening``, or
``screening-grounded`` with ``--grounded``).

``--grounded`` asks FinanceBench and TAT-QA against their own documents, as a user who ingested
them would: the 21 FinanceBench filings ingested (``ragspine ingest``'s path, BM25 only) and the
TAT-QA dev contexts (paragraphs and tables) indexed, each into a temporary data folder; every
question then goes through ``screen_question``, the service's screening stage (screening, then
the checks that lift an out-of-scope verdict: FAQ, misspelt domain names, the ingested documents).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.measurements import EVALUATION, record, record_note

from ragspine.qa.refusal import Refusal
from ragspine.qa.screening import RefusalReason, ScreeningPolicy
from tests.eval.public_qa import CMRC_FILE, JFINQA_FILE, QA_ROOT, TATQA_FILE
from tests.eval.questions import load_questions

CORPUS = QA_ROOT.parent
JAILBREAKS = CORPUS / "injection" / "jailbreak_dev.json"
FINANCEBENCH = CORPUS / "financebench_dev" / "questions.json"
JSQUAD_FILE = "jsquad/jsquad_test-v1.3.json"
HELD_OUT_PERCENT = 40
INJECTION_REASONS = frozenset({RefusalReason.PROMPT_INJECTION, RefusalReason.PROMPT_EXTRACTION,
                               RefusalReason.SECRET_REQUEST})


def split_of(prompt: str) -> str:
    """``held_out`` or ``tuning``, fixed by the prompt's text (a digest, not file order)."""
    digest = hashlib.sha256(prompt.strip().encode("utf-8")).digest()
    return "held_out" if int.from_bytes(digest[:4], "big") % 100 < HELD_OUT_PERCENT else "tuning"


def jailbreaks(path: Path = JAILBREAKS) -> dict[str, list[str]]:
    """The jailbreak prompts by split: ``{"tuning": [...], "held_out": [...]}``."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    prompts = [str(p) for p in raw["in_the_wild"]] + [str(item["prompt"]) for item in raw["dan_family"]]
    parts: dict[str, list[str]] = {"tuning": [], "held_out": []}
    for prompt in prompts:
        parts[split_of(prompt)].append(prompt)
    return parts


def _squad_questions(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    return [str(qa["question"]) for article in data for paragraph in article["paragraphs"] for qa in paragraph["qas"]]


def _tatqa(path: Path) -> list[str]:
    return [str(q["question"]) for context in json.loads(path.read_text(encoding="utf-8"))
            for q in context["questions"]]


def _jfinqa(path: Path) -> list[str]:
    return [str(item["qa"]["question"]) for item in json.loads(path.read_text(encoding="utf-8"))]


def _financebench(path: Path) -> list[str]:
    return [str(item["question"]) for item in json.loads(path.read_text(encoding="utf-8"))]


# name -> (file, loader); the ACME questions live in the repository, the others in the corpus.
LEGIT_SETS: dict[str, tuple[Path, Callable[[Path], list[str]]]] = {
    "acme": (Path(__file__).with_name("acme_questions.yaml"), lambda p: [q.text for q in load_questions(p)]),
    "financebench": (FINANCEBENCH, _financebench),
    "tatqa": (QA_ROOT / TATQA_FILE, _tatqa),
    "cmrc2018": (QA_ROOT / CMRC_FILE, _squad_questions),
    "jsquad": (QA_ROOT / JSQUAD_FILE, _squad_questions),
    "jfinqa": (QA_ROOT / JFINQA_FILE, _jfinqa),
}


@dataclass(frozen=True, slots=True)
class Tally:
    """Screening outcomes over one set of questions."""

    total: int
    injection: int  # refused as injection, prompt extraction or a secret request
    scope: int  # refused as off-topic or a competitor

    @property
    def refused(self) -> int:
        """Refused for any reason."""
        return self.injection + self.scope

    def rate(self, count: int) -> float:
        """``count`` as a share of the set."""
        return count / self.total if self.total else 0.0


def tally(policy: ScreeningPolicy, questions: Iterable[str]) -> tuple[Tally, list[tuple[str, Refusal | None]]]:
    """Screen every question; the counts, and each question with its refusal (None when it passes)."""
    outcomes = [(q, policy.screen(q)) for q in questions]
    kinds = Counter("injection" if r.reason in INJECTION_REASONS else "scope" for _, r in outcomes if r is not None)
    return Tally(len(outcomes), kinds["injection"], kinds["scope"]), outcomes


def report(policy: ScreeningPolicy, *, held_out: bool = True) -> str:
    """The measurement as a Markdown table (sets whose file is absent are listed as such).

    ``held_out=False`` leaves the held-out part out: what one looks at while writing rules.
    """
    lines = ["| set | questions | injection refusals | any refusal |", "| --- | --- | --- | --- |"]
    if JAILBREAKS.is_file():
        for part, prompts in jailbreaks().items():
            if part == "held_out" and not held_out:
                continue
            counts, _ = tally(policy, prompts)
            lines.append(f"| jailbreaks, {part} | {counts.total} | {counts.injection} ({counts.rate(counts.injection):.1%}) "
                         f"| {counts.refused} ({counts.rate(counts.refused):.1%}) |")
    for name, (path, load) in LEGIT_SETS.items():
        if not path.is_file():
            lines.append(f"| {name} | absent | | |")
            continue
        counts, _ = tally(policy, load(path))
        lines.append(f"| {name} | {counts.total} | {counts.injection} ({counts.rate(counts.injection):.2%}) "
                     f"| {counts.refused} ({counts.rate(counts.refused):.2%}) |")
    return "\n".join(lines)


def grounded_tally(qa: Any, questions: Iterable[str]) -> tuple[Tally, list[tuple[str, Refusal | None]]]:
    """Every question through the service's screening stage (``screen_question``) over ``qa``'s documents."""
    from ragspine.qa.answer import screen_question

    outcomes = [(q, screen_question(q, qa)[0]) for q in questions]
    kinds = Counter("injection" if r.reason in INJECTION_REASONS else "scope" for _, r in outcomes if r is not None)
    return Tally(len(outcomes), kinds["injection"], kinds["scope"]), outcomes


def services_over(data_dir: Path) -> Any:
    from ragspine.bootstrap import build_services
    from ragspine.settings import EmbedderName, Settings

    return build_services(Settings(data_dir=data_dir, embedder=EmbedderName("none")))


def acme_over_samples(data_dir: Path) -> Any:
    """The QA components over ACME's sample documents, ingested as ``ragspine load-samples`` does."""
    from rich.console import Console

    from ragspine.cli_ingest import ingest_samples

    services = services_over(data_dir)
    ingest_samples(services, Console(quiet=True))
    return services_over(data_dir).qa


def grounded_sets(workdir: Path) -> dict[str, tuple[Any, list[str]]]:
    """FinanceBench and TAT-QA, each with the QA components over its own documents (sets whose files are absent are left out)."""
    from tests.eval.documents import FINANCEBENCH as FB_DIR
    from tests.eval.documents import ingest
    from tests.eval.public_qa import tatqa

    sets: dict[str, tuple[Any, list[str]]] = {}
    acme = acme_over_samples(workdir / "acme")
    sets["acme (restricted-only competitor questions left out)"] = (acme, [
        q.text for q in load_questions(LEGIT_SETS["acme"][0]) if not (q.restricted_only and "hikari" in q.text.lower())])
    if JAILBREAKS.is_file():  # not legitimate: what the documents must not let through
        sets["jailbreaks, held-out, against ACME's documents (refusals wanted)"] = (acme, jailbreaks()["held_out"])
    if FINANCEBENCH.is_file():
        questions = json.loads(FINANCEBENCH.read_text(encoding="utf-8"))
        files = sorted({FB_DIR / f"{q['doc_name']}.pdf" for q in questions})
        ingest(files, workdir / "financebench", embedder="none", log=lambda _: None)
        sets["financebench"] = (services_over(workdir / "financebench").qa, _financebench(FINANCEBENCH))
    if (QA_ROOT / TATQA_FILE).is_file():
        from ragspine.retrieval.embedded_index import EmbeddedChunkIndex

        folder = workdir / "tatqa"
        folder.mkdir(parents=True, exist_ok=True)
        index = EmbeddedChunkIndex(folder / "chunks.db")
        index.add(list(tatqa().chunks))
        index.close()
        sets["tatqa"] = (services_over(folder).qa, _tatqa(QA_ROOT / TATQA_FILE))
    return sets


def grounded_report(workdir: Path) -> str:
    """The legitimate sets that have documents, asked against them: a Markdown table."""
    lines = ["| set (asked against its own documents) | questions | any refusal |", "| --- | --- | --- |"]
    for name, (qa, questions) in grounded_sets(workdir).items():
        counts, outcomes = grounded_tally(qa, questions)
        lines.append(f"| {name} | {counts.total} | {counts.refused} ({counts.rate(counts.refused):.2%}) |")
        if not name.startswith("jailbreaks"):
            lines += [f"|   refused: {r.rule} | {q[:120]} | |" for q, r in outcomes if r is not None][:20]
    return "\n".join(lines)


def _tuning_misses(policy: ScreeningPolicy) -> list[str]:
    """The tuning prompts no injection rule stops (the held-out part is never listed)."""
    _, outcomes = tally(policy, jailbreaks()["tuning"])
    return [q for q, r in outcomes if r is None or r.reason not in INJECTION_REASONS]


def _record(name: str, table: str) -> None:
    """Write ``table`` into section ``name`` of docs/evaluation.md when the run asked for it."""
    if "--record" in sys.argv:
        record(name, table, command=" ".join(["python -m tests.eval.screening_eval", *sys.argv[1:]]))
        print(record_note(EVALUATION, name), file=sys.stderr)


if __name__ == "__main__":
    from tests.support.glossary import default_glossary

    screen = ScreeningPolicy.default(glossary=default_glossary())
    if "--grounded" in sys.argv:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="screening-grounded-") as tmp:
            table = grounded_report(Path(tmp))
        print(table)
        _record("screening-grounded", table)
        sys.exit(0)
    table = report(screen, held_out="--held-out" in sys.argv)
    print(table)
    _record("screening", table)
    if "--misses" in sys.argv:
        for prompt in _tuning_misses(screen):
            print("---", prompt[:400].replace("\n", " "))
    for name in sys.argv[1:]:
        if name in LEGIT_SETS:
            path, load = LEGIT_SETS[name]
            for question, refusal in tally(screen, load(path))[1]:
                if refusal is not None and refusal.reason in INJECTION_REASONS:
                    print(f"{name}: {refusal.rule}: {question}")
