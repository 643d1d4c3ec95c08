"""Markdown tables of an evaluation report (docs/evaluation.md's tables are written from these)."""

from __future__ import annotations

from typing import Any

MODE_LABELS = {
    "bm25": "BM25 alone (index, no query vector)",
    "dense": "dense alone (e5 cosine)",
    "hybrid": "hybrid (index default: min-max score fusion)",
    "hybrid_rrf": "hybrid with RRF (k=60) instead",
    "bm25s": "bm25s baseline (same tokens)",
    "pipeline": "HybridRetriever pipeline, BM25",
    "pipeline_hybrid": "HybridRetriever pipeline, hybrid",
}
COLUMNS = ("recall@1", "recall@5", "recall@10", "mrr")


def mode_table(modes: dict[str, Any]) -> list[str]:
    """One row per mode: R@1, R@5, R@10, MRR@10, ms per query."""
    lines = ["| mode | R@1 | R@5 | R@10 | MRR | ms/query |", "| --- | --- | --- | --- | --- | --- |"]
    for name, scores in modes.items():
        cells = " | ".join(f"{scores[c]:.3f}" for c in COLUMNS)
        lines.append(f"| {MODE_LABELS.get(name, name)} | {cells} | {scores['ms_per_query']:.2f} |")
    return lines


def language_table(modes: dict[str, Any]) -> list[str]:
    """Recall@5 / MRR per language and mode (only when a corpus has several languages)."""
    languages = sorted({lang for scores in modes.values() for lang in scores.get("by_lang", {})})
    if not languages:
        return []
    header = "| mode | " + " | ".join(f"{lang} R@5 / MRR" for lang in languages) + " |"
    lines = [header, "| --- |" + " --- |" * len(languages)]
    for name, scores in modes.items():
        by_lang = scores.get("by_lang", {})
        cells = " | ".join(f"{by_lang[lang]['recall@5']:.3f} / {by_lang[lang]['mrr']:.3f}" if lang in by_lang else "-"
                           for lang in languages)
        lines.append(f"| {MODE_LABELS.get(name, name)} | {cells} |")
    return lines


def render(report: dict[str, Any]) -> str:
    """Every corpus: its description, the mode table, languages, leaks, hybrid vs BM25 and cost."""
    out = [f"Retrieval evaluation ({'quick' if report['quick'] else 'full'}), embedder: "
           f"{report['embedder'] or report['embedder_note']}, top_k={report['top_k']}"]
    for name, result in report["corpora"].items():
        out.append(f"\n## {name}")
        if "skipped" in result:
            out.append(f"skipped: {result['skipped']}")
            continue
        out.append(f"{result['description']}: {result['chunks']} chunks, {result['queries']} queries")
        out.extend(mode_table(result["modes"]))
        out.extend(language_table(result["modes"]))
        leaks = {mode: scores["restricted_leaks"] for mode, scores in result["modes"].items()}
        if result.get("restricted_only_queries"):
            out.append(f"restricted-only questions: {result['restricted_only_queries']}; "
                       f"restricted leaks per mode: {leaks}")
        if "hybrid_not_worse_than_bm25" in result:
            out.append(f"hybrid >= BM25 alone on R@1/5/10 and MRR: {result['hybrid_not_worse_than_bm25']}")
            out.append(f"per query, hybrid vs BM25: {result['hybrid_vs_bm25_per_query']}; "
                       f"dense vs BM25: {result['dense_vs_bm25_per_query']}")
        out.append(f"cost: {result['cost']}")
    return "\n".join(out)
