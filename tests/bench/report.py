"""The human-readable bench report, rendered from the same dict that is written as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

PATH_LABELS = {
    "ask": "a) answer_question, a question not seen before (full parse)",
    "ask_repeated": "a') answer_question, warm: the 12 questions cycled (facts read each time)",
    "tool": "b) execute_query_metric (tool path)",
    "floor": "c) floor: bare sqlite3 PK lookup",
    "harness": "   harness only (call + timer)",
}


def comparison(target: dict[str, Any]) -> str:
    """The target's sign; results files written before targets carried one had ``<`` on every p50 target."""
    return str(target.get("comparison", "<" if "p50" in target["what"] else "<="))


def _verdict(target: dict[str, Any]) -> str:
    state = "MET" if target["met"] else "NOT MET"
    return f"target {target['what']} {comparison(target)} {target['limit']}x: {target['value']}x -> {state}"


def _structured(s: dict[str, Any]) -> list[str]:
    store = s["store"]
    built = "cached" if store["cached"] else f"built in {store['build_seconds']:.1f}s"
    lines = [
        "1. Structured ask, warm, in-process",
        f"   store: {store['facts']:,} facts ({store['synthetic']:,} synthetic + "
        f"{store['sample']} ACME sample), {built}",
        f"   {s['n']:,} calls per path after {s['warmup']:,} warm-up calls, "
        f"cycling {len(s['questions'])} questions (zh/en/ja), one fact each",
        "",
        f"   {'path':<72}{'p50 µs':>10}{'p99 µs':>10}{'mean µs':>10}",
    ]
    for name, label in PATH_LABELS.items():
        p = s["paths"].get(name)
        if p is None:  # a results file from before this path existed
            continue
        lines.append(f"   {label:<72}{p['p50_us']:>10.2f}{p['p99_us']:>10.2f}{p['mean_us']:>10.2f}")
    lines.append("")
    for name, ratio in s["ratios"].items():
        lines.append(f"   {name:<20} p50 {ratio['p50']:>6.2f}x   p99 {ratio['p99']:>6.2f}x")
    after = s.get("floor_after_ask")
    if after is not None:  # absent from a results file of before it was measured
        lines.append(f"   {'floor after an ask':<20} p50 {after['paths']['p50_us']:>6.2f} µs; ask p50 over it "
                     f"{after['ask_over_it_p50']:.2f}x (the floor's statement in an ask's cache state; not the target)")
    lines += ["", "   " + _verdict(s["target"])]
    if "target_repeated" in s:
        lines.append("   " + _verdict(s["target_repeated"]))
    if "parse_cache" in s:
        lines.append("   parse cache: " + "; ".join(f"{name} {c['hits']:,} hits / {c['misses']:,} misses (size {c['size']})"
                                                   for name, c in s["parse_cache"].items()))
    lines.append("")
    prof = s["profile"]
    lines.append(f"   cProfile of a) over {prof['calls']:,} calls, top 10 by cumulative time "
                 "(µs per ask, inflated by the profiler):")
    lines.append(f"   {'cum/ask':>9}{'self/ask':>10}{'ncalls':>9}  function")
    lines += [_profile_row(row) for row in prof["top_cumulative"]]
    lines.append("   top 10 by own time:")
    lines += [_profile_row(row) for row in prof["top_self"]]
    return lines


def _profile_row(row: dict[str, Any]) -> str:
    cum, own = row["cum_per_ask_us"], row["self_per_ask_us"]
    return f"   {cum:>9.2f}{own:>10.2f}{row['ncalls']:>9}  {row['function']}"


def _cold(c: dict[str, Any] | None) -> list[str]:
    if c is None:
        return ["2. Cold start: skipped"]
    lines = [f"2. Cold start of the ask handler: fresh processes, {c['runs']} interleaved rounds "
             "after one warm-up each",
             f"   env: {' '.join(f'{k}={v}' for k, v in c['env'].items())}", ""]
    for name, stats in c["timings"].items():
        command = f"python -c {c['commands'][name]!r}"
        lines.append(f"   {name:<10} {command:<42} median {stats['median_ms']:>7.1f} ms"
                     f"  (min {stats['min_ms']:.1f}, max {stats['max_ms']:.1f})")
    if c.get("error"):
        err = c["error"]
        lines += ["", f"   FAILED: python -c {err['command']!r} exited {err['returncode']}:", err["stderr"]]
    if "ratio" in c:
        lines += ["", f"   candidate/baseline {c['ratio']:.3f}x; candidate - baseline = "
                      f"{c['handler_own_ms']:+.1f} ms (medians)",
                  "   " + _verdict(c["target"]), "",
                  "   -X importtime of the candidate, top 15 by cumulative time:",
                  f"   {'cum ms':>8}{'self ms':>9}  module (indent = nesting)"]
        for row in c["importtime_top"]:
            indent = "  " * row["depth"]
            lines.append(f"   {row['cumulative_ms']:>8.1f}{row['self_ms']:>9.1f}  {indent}{row['module']}")
    return lines


def _first_request(f: dict[str, Any] | None) -> list[str]:
    if f is None:
        return []
    lines = ["", "   Cold start with its first request (moto DynamoDB in server mode, the ACME facts):"]
    if f.get("error"):
        err = f["error"]
        return lines + [f"   FAILED: {err['command']} exited {err['returncode']}:", err["stderr"]]
    for name, stats in f["timings"].items():
        ratio = f["ratios"].get(name, {"wall": 1.0, "cpu_to_response": 1.0, "cpu": 1.0})
        lines.append(f"   {name:<18} wall median {stats['wall']['median_ms']:>7.1f} ms ({ratio['wall']:.2f}x), "
                     f"CPU to the response {stats['cpu_to_response']['median_ms']:>7.1f} ms "
                     f"({ratio['cpu_to_response']:.2f}x), with the exit {stats['cpu']['median_ms']:>7.1f} ms "
                     f"({ratio['cpu']:.2f}x)")
    load = f["load_average"]
    lines.append(f"   load average {load['start_1_5_15']} at start, {load['end_1_5_15']} at end")
    return lines + ["   " + _verdict(f["target"])]


def render(results: dict[str, Any], json_path: Path) -> str:
    """The full report as text."""
    meta = results["meta"]
    head = [f"ragspine bench ({meta['mode']} mode) - python {meta['python']}, sqlite {meta['sqlite']}, "
            f"{meta['platform']}", ""]
    tail = ["", f"total {meta['elapsed_s']:.1f}s; JSON: {json_path}"]
    cold = results["cold_start"]
    first = _first_request(cold.get("first_request") if cold else None)
    return "\n".join(head + _structured(results["structured"]) + [""] + _cold(cold) + first + tail)
