"""What a whole folder of filings gives the dense leg, and what each way of embedding less of it would save.

A benchmark, not a test: nothing here asserts. Every FinanceBench development filing of the
handout is parsed and chunked as ingestion does (``dense_ingest.filing_passages``), then:

- ``folder``: e5 tokens of the whole passages, of the dense texts, of the distinct dense texts
  of each filing, and of the distinct dense texts of the whole folder (what the vector cache
  embeds: a text one filing already gave costs a SQLite read in the next);
- ``repeated_lines``: the tokens of the worded lines a filing repeats verbatim from an earlier
  filing of the same company (risk factors, descriptions kept from one year to the next): the
  most a cache of lines rather than of passages could leave out;
- ``figure_heavy``: the passages whose dense text is mostly figures (digits over letters and
  digits above a threshold; a statement page keeps its row labels), their share of the tokens,
  and the FinanceBench questions whose evidence passage is one of them (the passage of the
  evidence page that shares most words with the evidence text): what leaving them out of the
  dense leg would save and whose evidence it would lose;
- ``windows`` (unless ``--no-windows``): the CPU of the same tokens of the longest dense texts
  embedded whole and cut into windows of 256 and 128 tokens (the BLAS kernel, one thread, rounds
  alternating): what shorter child passages for the dense leg alone could save of the attention.

    .venv/bin/python tests/bench/dense_folder.py [--filings NAME ...] [--no-windows] [--window-texts N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from dense_ingest import CORPUS, RESULTS, filing_passages, whole_text

THRESHOLDS = (0.2, 0.35)
WINDOWS = (256, 128)
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z]{4,}")
_PAGE = re.compile(r"^page=(\d+)(?:-(\d+))?")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def figure_share(text: str) -> float:
    """Digits over letters and digits of the text; 0 for a text with neither."""
    letters, digits = len(_LETTER.findall(text)), len(_DIGIT.findall(text))
    return digits / (letters + digits) if letters + digits else 0.0


def _pages(locator: str) -> tuple[int, int] | None:
    match = _PAGE.match(locator)
    if match is None:
        return None
    first = int(match.group(1))
    return first, int(match.group(2) or first)


def evidence_passage(children: Sequence[Any], page: int, evidence: str) -> Any | None:
    """The passage on the (1-based) page that shares most words with the evidence text; None if no passage is."""
    wanted = set(_WORD.findall(evidence.lower()))
    on_page = [c for c in children if (span := _pages(c.source_locator)) and span[0] <= page <= span[1]]
    if not on_page:
        return None
    return max(on_page, key=lambda c: len(wanted & set(_WORD.findall(c.text.lower()))))


def folder_composition(filings: dict[str, list[Any]], tokens: Callable[[str], int],
                       questions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The folder's tokens by what is embedded, repeated lines, figure-heavy passages and their evidence."""
    from ragspine.retrieval.passage_text import dense_body, dense_text

    seen_texts: set[str] = set()
    seen_lines: set[tuple[str, str]] = set()
    totals = dict.fromkeys(("passages", "tokens_whole", "tokens_dense", "tokens_distinct_per_filing",
                            "tokens_distinct_folder", "line_tokens", "line_tokens_repeated_from_earlier_filing"), 0)
    heavy = {t: {"passages": 0, "tokens": 0} for t in THRESHOLDS}
    for children in filings.values():
        own: set[str] = set()
        earlier = set(seen_lines)
        for chunk in children:
            text = dense_text(chunk)
            count = tokens(text)
            totals["passages"] += 1
            totals["tokens_whole"] += tokens(whole_text(chunk))
            totals["tokens_dense"] += count
            if text not in own:
                own.add(text)
                totals["tokens_distinct_per_filing"] += count
            if text not in seen_texts:
                seen_texts.add(text)
                totals["tokens_distinct_folder"] += count
            body = dense_body(chunk.text)
            for line in (line.strip() for line in body.split("\n")):
                if not line:
                    continue
                key = (chunk.company or "", line)
                line_count = tokens(line)  # as a text of its own, what a cache of lines would embed
                totals["line_tokens"] += line_count
                if key in earlier:
                    totals["line_tokens_repeated_from_earlier_filing"] += line_count
                seen_lines.add(key)
            share = figure_share(body)
            for threshold in THRESHOLDS:
                if share > threshold:
                    heavy[threshold]["passages"] += 1
                    heavy[threshold]["tokens"] += count
    evidence = {t: 0 for t in THRESHOLDS}
    found = 0
    for question in questions:
        if question["doc_name"] not in filings:
            continue
        passages = [evidence_passage(filings[question["doc_name"]], item["evidence_page_num"] + 1, item["evidence_text"])
                    for item in question["evidence"]]
        shares = [figure_share(dense_body(p.text)) for p in passages if p is not None]
        found += bool(shares)
        for threshold in THRESHOLDS:
            evidence[threshold] += any(share > threshold for share in shares)
    return {"filings": len(filings), **totals,
            "distinct_folder/distinct_per_filing": round(totals["tokens_distinct_folder"]
                                                         / totals["tokens_distinct_per_filing"], 4),
            "repeated_line_share": round(totals["line_tokens_repeated_from_earlier_filing"]
                                         / totals["line_tokens"], 4),
            "figure_heavy": {str(t): {**heavy[t], "token_share": round(heavy[t]["tokens"] / totals["tokens_dense"], 4),
                                      "questions_with_such_evidence": evidence[t]} for t in THRESHOLDS},
            "questions_with_evidence_found": found}


def window_costs(model: Any, texts: Sequence[str], rounds: int = 2) -> dict[str, float]:
    """CPU seconds of the texts' tokens embedded whole and in shorter windows, rounds alternating."""
    vocabulary = model.vocabulary
    content = [vocabulary.token_ids("passage: " + text) for text in texts]
    spent = {"whole": 0.0} | {f"windows_of_{w}": 0.0 for w in WINDOWS}

    def run(width: int | None, batch: Sequence[list[int]]) -> None:
        pieces = [ids if width is None else ids[start:start + width]
                  for ids in batch for start in range(0, len(ids), width or len(ids))]
        model._forward([[vocabulary.bos, *piece, vocabulary.eos] for piece in pieces])

    for _ in range(rounds):
        for name, width in (("whole", None), *((f"windows_of_{w}", w) for w in WINDOWS)):
            started = time.process_time()
            for start in range(0, len(content), 8):
                run(width, content[start:start + 8])
            spent[name] += time.process_time() - started
    result = {name: round(seconds, 2) for name, seconds in spent.items()}
    result |= {f"{name}/whole": round(seconds / spent["whole"], 3) for name, seconds in spent.items() if name != "whole"}
    return {"texts": len(texts), "tokens": sum(len(c) + 2 for c in content), **result}


def main(argv: list[str] | None = None) -> int:
    """Parse the folder, measure, print and save ``tests/bench/results/dense_folder.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filings", nargs="+", default=None, help="file stems (default: every filing of the folder)")
    parser.add_argument("--no-windows", action="store_true", help="leave out the window timing")
    parser.add_argument("--window-texts", type=int, default=48, help="longest dense texts timed in windows")
    args = parser.parse_args(argv)

    from ragspine.llm.e5_blas import E5BlasModel, limit_blas_threads
    from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available
    from ragspine.retrieval.passage_text import dense_text

    if not model_available(MULTILINGUAL_E5_SMALL_Q4) or not CORPUS.is_dir():
        _log("the e5 model or the FinanceBench filings are missing: nothing measured")
        return 0
    names = args.filings or sorted(path.stem for path in CORPUS.glob("*.pdf"))
    filings: dict[str, list[Any]] = {}
    for name in names:
        children, cpu_s, _ = filing_passages(name)
        filings[name] = children
        _log(f"{name}: {len(children)} passages ({cpu_s:.1f} CPU s)")
    limit_blas_threads(1)
    model = E5BlasModel(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path)
    counted: dict[str, int] = {}

    def tokens(text: str) -> int:
        if text not in counted:
            counted[text] = len(model.vocabulary.token_ids("passage: " + text)) + 2
        return counted[text]

    questions = json.loads((CORPUS / "questions.json").read_text(encoding="utf-8"))
    results: dict[str, Any] = {"folder": folder_composition(filings, tokens, questions)}
    if not args.no_windows:
        texts = sorted({dense_text(c) for children in filings.values() for c in children}, key=tokens)
        results["windows"] = window_costs(model, texts[-args.window_texts:])
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "dense_folder.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
