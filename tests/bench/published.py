"""The bench results as the Markdown tables docs/benchmarks.md publishes (``run.py --record`` writes them there)."""

from __future__ import annotations

from typing import Any

from report import PATH_LABELS, comparison

# The paths the page shows, in its order; the harness-only row is a check of the timer, not a result.
PUBLISHED_PATHS = ("ask_repeated", "ask", "tool", "floor")
INGESTION_ROWS = (("total", "all files, embedder as configured"), ("pdf", "generated PDF"),
                  ("without_pdf", "ACME + corpus files"), ("pdf_embedder_none", "generated PDF, embedder off"))


def structured_table(s: dict[str, Any]) -> list[str]:
    """p50/p99 of each path and its ratio to the bare SQLite floor, with both targets' verdicts."""
    store = s["store"]
    lines = [f"{store['facts']:,} facts ({store['synthetic']:,} synthetic + the ACME sample); {s['n']:,} calls per "
             f"path after {s['warmup']:,} warm-up calls, cycling {len(s['questions'])} zh/en/ja questions.", "",
             "| path | p50 µs | p99 µs | p50 / floor | p99 / floor |", "| --- | --- | --- | --- | --- |"]
    for name in PUBLISHED_PATHS:
        path = s["paths"][name]
        ratio = s["ratios"].get(f"{name}/floor", {"p50": 1.0, "p99": 1.0})
        label = PATH_LABELS[name].split(") ", 1)[-1]
        lines.append(f"| {label} | {path['p50_us']:.1f} | {path['p99_us']:.0f} | {ratio['p50']:.2f}x | {ratio['p99']:.1f}x |")
    lines.append("")
    for target in (s["target_repeated"], s["target"]):
        verdict = "met" if target["met"] else "NOT met"
        lines.append(f"- {target['what']}: {target['value']}x (target {comparison(target)} {target['limit']}x, {verdict})")
    after = s.get("floor_after_ask")
    if after is not None:
        lines.append(f"- for reading, not a target: the floor's lookup timed right after each unseen ask (the cache "
                     f"state an ask leaves) {after['paths']['p50_us']:.1f} µs at p50; p50(ask) over it "
                     f"{after['ask_over_it_p50']:.2f}x")
    return lines


def ingestion_table(result: dict[str, Any]) -> list[str]:
    """Pages per second of the bare parser and of the whole pipeline, and their ratio, per input."""
    lines = [f"Embedder `{result['embedder']}`, index {result['index_class']}.", "",
             "| input | pages | bare parse pages/s | pipeline pages/s (until searchable) | pipeline / parse |",
             "| --- | --- | --- | --- | --- |"]
    for key, label in INGESTION_ROWS:
        row = result[key]
        lines.append(f"| {label} | {row['pages']} | {row['parse_pages_per_s']:.0f} | {row['pipeline_pages_per_s']:.0f} "
                     f"| {row['ratio_pipeline_over_parse']:.1f}x |")
    return lines
