"""Real Dify and n8n exports go through the whole pipeline: a result or our error, never a crash, same bytes twice.

The files live in ``../shared/corpus`` (licences differ, so they are never copied here); the
tests skip when that folder is absent.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.integration.workflows.pipeline import run_pipeline

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
FILES = sorted([*CORPUS.glob("dify/*.yml"), *CORPUS.glob("n8n/*.json")]) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"third-party corpus not found at {CORPUS}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name[:40]}")
def test_every_corpus_file_gives_a_result_or_our_error_deterministically(path: Path) -> None:
    data = path.read_bytes()
    first = run_pipeline(data, path.name)
    second = run_pipeline(data, path.name)
    assert first == second
    assert first, "the pipeline produced nothing"


def test_the_known_broken_n8n_export_is_a_parse_error_with_its_position() -> None:
    broken = CORPUS / "n8n" / "20_Parse_PDF_with_LlamaParse_and_save_to_Airtable.json"
    if not broken.exists():
        pytest.skip("file not in this corpus")
    outputs = run_pipeline(broken.read_bytes(), broken.name)
    assert outputs["normalize"].startswith("error WORKFLOW_PARSE_ERROR: json parse error at line 601, column 2")


def test_the_dify_export_without_a_version_is_read_as_0_1_0() -> None:
    unversioned = CORPUS / "dify" / "f07_Dify.yml"
    if not unversioned.exists():
        pytest.skip("file not in this corpus")
    analysis = json.loads(run_pipeline(unversioned.read_bytes(), unversioned.name)["analyze"])
    assert [f["code"] for f in analysis["findings"]] == ["missing_version"]


def _mutations(data: bytes, seed: int) -> list[bytes]:
    """Damaged variants of a real file: truncated, and with random values replaced by wrong types."""
    rng = random.Random(seed)
    variants = [data[: len(data) // 2], data[: len(data) // 3]]
    text = data.decode("utf-8")
    try:
        import yaml

        doc = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - broken files have no structure to damage
        return variants
    for _ in range(8):
        damaged: Any = json.loads(json.dumps(doc))
        holder: Any = None
        key: Any = None
        current: Any = damaged
        for _depth in range(rng.randint(1, 6)):
            if isinstance(current, dict) and current:
                chosen: Any = rng.choice(sorted(current))
            elif isinstance(current, list) and current:
                chosen = rng.randrange(len(current))
            else:
                break
            holder, key = current, chosen
            if not isinstance(current[chosen], dict | list) or rng.random() < 0.3:
                break
            current = current[chosen]
        if holder is not None:
            holder[key] = rng.choice([None, 7, "text", [], {}, [1, "x"], {"type": 3}, True, 0.5])
        variants.append(json.dumps(damaged).encode())
    return variants


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name[:40]}")
def test_damaged_corpus_files_never_crash(path: Path) -> None:
    for i, variant in enumerate(_mutations(path.read_bytes(), seed=len(path.name))):
        name = path.name if i < 2 else path.stem + ".json"
        run_pipeline(variant, name)  # raises only if something other than our errors escapes
