"""What an ingestion step freed goes back to the system when the run ends, not kept by the C library.

Resident memory is read from ``/proc`` (Linux with glibc, whose heaps keep freed memory): the
step's allocations are hundreds of megabytes, so the reading does not depend on anything else.
"""

from __future__ import annotations

import gc
import platform
import sys
from pathlib import Path

import pytest

from ragspine.ingestion import steps
from ragspine.ingestion.operations import Operation, OperationStatus
from ragspine.ingestion.steps import Step, StepContext, StepResult
from ragspine.samples.build_acme import SAMPLES_DIR
from tests.integration.ingestion.pipeline.conftest import Ingest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                                reason="resident memory from /proc, and glibc's heaps")

STRINGS = 100_000  # passage-sized strings (2 KB each): 200 MB, as a large document's step decodes
SURVIVORS = 50  # one string in this many lives on among the freed (as the index's and caches' objects do)
MB = 1 << 20


def _resident() -> int:
    with Path("/proc/self/status").open(encoding="ascii") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))


def test_the_memory_a_step_freed_is_given_back_when_the_run_ends(ingest: Ingest, tmp_path: Path) -> None:
    survivors: list[str] = []

    def extract_decoding_a_large_document(operation: Operation, context: StepContext) -> StepResult:
        result = steps.extract(operation, context)
        decoded = [("passage " * 250) + str(i) for i in range(STRINGS)]
        survivors.extend(decoded[::SURVIVORS])
        return result

    policy = SAMPLES_DIR / "ACME_Product_Policy.md"
    assert ingest(policy).status is OperationStatus.SUCCEEDED  # what a first run loads is loaded
    gc.collect()
    before = _resident()
    operation = ingest(policy, doc_id="policy-again", steps={Step.EXTRACT_FACTS: extract_decoding_a_large_document})
    grown = _resident() - before

    assert operation.status is OperationStatus.SUCCEEDED
    kept = sum(sys.getsizeof(s) for s in survivors)
    assert kept < 5 * MB
    # The step allocated 200 MB and kept 4 MB: the process holds at most a quarter of it afterwards.
    assert grown < 50 * MB, f"{grown / MB:.0f} MB more resident after the run"
