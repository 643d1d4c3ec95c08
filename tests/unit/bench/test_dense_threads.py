"""The int8 kernel's thread measure: the ratios ``dense_ingest`` reports from alternating batches."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # the bench's modules live beside run.py

from dense_threads import summarise  # noqa: E402


def _pair(load: float, free: int, wall_1: float, wall_2: float, cpu_1: float = 1.0, cpu_2: float = 1.1,
          calling: float = 0.6) -> dict[str, float]:
    return {"load": load, "free_cores": free, "wall_1": wall_1, "cpu_1": cpu_1, "wall_2": wall_2, "cpu_2": cpu_2,
            "calling_thread_2": calling}


class TestSummarise:
    def test_the_free_core_ratio_counts_only_the_pairs_that_began_with_the_cores_free(self) -> None:
        pairs = [_pair(0.3, 2, wall_1=1.0, wall_2=0.6), _pair(6.0, 1, wall_1=4.0, wall_2=4.0)]
        result = summarise(pairs, cores=2)
        assert result["pairs_with_free_cores"] == 1
        assert result["wall_ratio_free"] == 0.6
        assert result["wall_ratio"] == 0.92  # 4.6 s against 5.0 s over both pairs
        assert result["load_average"] == {"lowest": 0.3, "highest": 6.0}

    def test_no_free_core_seen_is_reported_as_not_measured(self) -> None:
        result = summarise([_pair(9.0, 1, wall_1=3.0, wall_2=2.5)], cores=2)
        assert result["wall_ratio_free"] is None
        assert result["pairs_with_free_cores"] == 0

    def test_the_calling_threads_share_estimates_the_free_cores_wall(self) -> None:
        result = summarise([_pair(9.0, 1, 3.0, 2.5, cpu_1=2.0, cpu_2=2.2, calling=1.2)], cores=2)
        assert result["calling_thread_ratio"] == 0.6  # 1.2 CPU s of the calling thread against 2.0 on one thread
        assert result["worker_share"] == 0.455  # the pool's thread ran 1.0 of the 2.2 CPU s
