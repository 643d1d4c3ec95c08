"""FAQ matching on paraphrases it has never seen, and on near misses it must not answer.

``faq_paraphrases.yaml`` holds paraphrases of each ACME FAQ entry and near-miss questions
in zh/en/ja. Each falls in the tuning or held-out part by a hash of its text (``part_of``);
the semantic threshold and margin were chosen on the tuning part only. A false hit (a near
miss answered, or a paraphrase given another entry's answer) is worse than a miss, which
still goes on to the narrative channel. Run ``python -m tests.eval.faq_eval`` for the table;
``--record`` also writes it into the ``faq`` section of docs/evaluation.md.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml
from tools.measurements import EVALUATION, record, record_note

from ragspine.qa.faq import FaqIndex

PARAPHRASES = Path(__file__).with_name("faq_paraphrases.yaml")
COMPANY = ("ACME",)  # what the service passes for the ACME domain (``bootstrap.faq_by_meaning``)


def part_of(question: str) -> str:
    """``held_out`` or ``tuning``, fixed by the question's text (about half each)."""
    return "held_out" if hashlib.sha256(question.encode("utf-8")).digest()[0] % 2 else "tuning"


def labelled(part: str, path: Path = PARAPHRASES) -> list[tuple[str, str | None]]:
    """``(question, entry id or None for a near miss)`` of one part."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    items: list[tuple[str, str | None]] = [(q, str(e)) for e, qs in raw["paraphrases"].items() for q in qs]
    items += [(q, None) for q in raw["near_misses"]]
    return [(q, e) for q, e in items if part_of(q) == part]


@dataclass(frozen=True, slots=True)
class FaqScore:
    """Outcomes over a labelled part."""

    paraphrases: int
    hits: int  # a paraphrase answered with its own entry
    near_misses: int
    false_hits: int  # a near miss answered, or a paraphrase answered with another entry


def score(faq: FaqIndex, items: list[tuple[str, str | None]]) -> FaqScore:
    """Match every question of ``items`` and count."""
    hits = false = 0
    for question, entry in items:
        hit = faq.match(question)
        if hit is None:
            continue
        if hit.entry.entry_id == entry:
            hits += 1
        else:
            false += 1
    paraphrases = sum(entry is not None for _, entry in items)
    return FaqScore(paraphrases, hits, len(items) - paraphrases, false)


def table(fuzzy: FaqIndex, semantic: FaqIndex) -> list[str]:
    """Both matchers over both parts, as Markdown."""
    lines = ["| part | matcher | paraphrases hit | near misses | false hits |", "| --- | --- | --- | --- | --- |"]
    for part in ("tuning", "held_out"):
        for name, index in (("exact + fuzzy", fuzzy), ("+ e5 by meaning", semantic)):
            s = score(index, labelled(part))
            lines.append(f"| {part} | {name} | {s.hits}/{s.paraphrases} | {s.near_misses} | {s.false_hits} |")
    return lines


if __name__ == "__main__":
    from ragspine.bootstrap import domain_dir
    from tests.eval.vectors import e5_embedders

    fuzzy = FaqIndex.from_file(domain_dir() / "faq.yaml")
    semantic = fuzzy.with_embedders(*e5_embedders(), ignore=COMPANY)
    lines = table(fuzzy, semantic)
    print("\n".join(lines))
    if "--record" in sys.argv:
        record("faq", lines, command="python -m tests.eval.faq_eval --record")
        print(record_note(EVALUATION, "faq"), file=sys.stderr)
