"""Inputs of the tokenizer golden test, and how its golden file was written.

``golden_tokens.json`` holds, for every input, a short digest of what the three tokenizers
returned *before* they were merged into :mod:`ragspine.text` (commit 836a80b: the retrieval
index's document and query tokens, the extractive provider's overlap tokens, and catalog
search's normalisation and tokens). The test recomputes them with the toolkit and must find
the same digests, so every ranking built on these tokens is unchanged.
When a repository text the test reads is edited (a comment, a template), the digests of the
chunk holding it are renewed with the toolkit, after the old text is shown to still give the
golden digests.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpus" / "qa"
GOLDEN = Path(__file__).resolve().with_name("golden_tokens.json")

# Every script the three users meet, plus the characters where their rules differ: the
# iteration marks, the katakana middle dot and prolonged sound mark, the katakana extension
# block, half-width katakana, full-width Latin, Hangul, accents, decimals and "q&a".
_ALPHABET = (
    "abcxyzABCXYZ0123456789 .,;:-_/%&'\"()!?\t\n"
    "ＡＢＣａｂｃ０１２３４５ｶﾙﾃｰﾞ"
    "香港收入为什么下降广东道会议纪要税契約書要約報告净利润々〆〇"
    "のをはがにですますあいうゐ"
    "カルテデータベースレポート・ーヽヾㇰㇱㇿ"
    "한국어텍스트표"
    "éèàüöçñÅ"
)
_WORDS = ("q&a", "Q&A", "FY2024", "7.4%", "policies", "returns", "analysis", "status", "class", "the", "it", "is",
          "What", "revenue", "meetings", "ies", "ＪＳＯＮ", "what's", "a" * 70)


def random_strings(count: int = 1500, seed: int = 15) -> list[str]:
    """Seeded mixed-script strings (``random.Random`` is stable across Python versions)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 8)):
            if rng.random() < 0.25:
                parts.append(rng.choice(_WORDS))
            else:
                parts.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 12))))
        out.append(rng.choice(("", " ", "")).join(parts))
    return out


def repo_texts() -> list[str]:
    """Lines of the texts in this repository that the three users tokenize."""
    texts: list[str] = []
    for path in sorted((ROOT / "shared" / "ragspine" / "samples" / "acme").glob("*.md")):
        texts.extend(path.read_text(encoding="utf-8").splitlines())
    for path in sorted((ROOT / "shared" / "ragspine" / "workflows").rglob("catalog/templates/*.yml")):
        texts.extend(path.read_text(encoding="utf-8").splitlines())
    for path in sorted((ROOT / "shared" / "ragspine" / "workflows").rglob("catalog/data/descriptors.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines()[:400]:
            texts.extend(_strings(json.loads(line)))
    texts.extend((ROOT / "tests" / "eval" / "acme_questions.yaml").read_text(encoding="utf-8").splitlines())
    return [t for t in texts if t.strip()]


def corpus_texts() -> list[str]:
    """Contexts and questions of the handout QA corpora the quick evaluation reads (empty when absent)."""
    texts: list[str] = []
    cmrc = CORPUS / "cmrc2018" / "cmrc2018_dev.squad-style.json"
    if cmrc.exists():
        paragraphs = [p for a in json.loads(cmrc.read_text(encoding="utf-8"))["data"] for p in a["paragraphs"]]
        for paragraph in paragraphs[:150]:
            texts.append(paragraph["context"])
            texts.extend(q["question"] for q in paragraph["qas"])
    tatqa = CORPUS / "tatqa" / "tatqa_dataset_dev.json"
    if tatqa.exists():
        for item in json.loads(tatqa.read_text(encoding="utf-8"))[:40]:
            texts.extend(p["text"] for p in item["paragraphs"])
            texts.extend(q["question"] for q in item["questions"])
    return texts


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def digest(outputs: object) -> str:
    """A short, stable digest of a JSON-compatible value."""
    text = json.dumps(outputs, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


CHUNK = 25  # inputs per digest: a mismatch names 25 inputs to look at, and the file stays small


def chunks(texts: list[str]) -> list[list[str]]:
    """The inputs in runs of CHUNK."""
    return [texts[i:i + CHUNK] for i in range(0, len(texts), CHUNK)]


def digests(texts: list[str], tokenizers: dict[str, Callable[[str], object]]) -> dict[str, list[str]]:
    """Per tokenizer, the digest of its outputs on every run of CHUNK inputs."""
    return {name: [digest([fn(t) for t in run]) for run in chunks(texts)] for name, fn in tokenizers.items()}
