"""Mean pooling ignores padding; L2 normalisation gives unit rows."""

from __future__ import annotations

import numpy as np

from ragspine.llm.pooling import l2_normalise, mean_pool


class TestMeanPool:
    def test_padding_positions_do_not_count(self) -> None:
        # GIVEN one row with two real tokens and one huge padding vector
        hidden = np.array([[[1.0, 2.0], [3.0, 4.0], [100.0, 100.0]]])
        mask = np.array([[1, 1, 0]])
        # WHEN pooled
        pooled = mean_pool(hidden, mask)
        # THEN only the real tokens are averaged
        np.testing.assert_allclose(pooled, [[2.0, 3.0]])

    def test_an_all_padding_row_gives_zeros_not_nan(self) -> None:
        pooled = mean_pool(np.ones((1, 2, 3)), np.zeros((1, 2), dtype=np.int64))
        assert np.all(pooled == 0.0)


class TestL2Normalise:
    def test_rows_become_unit_length(self) -> None:
        unit = l2_normalise(np.array([[3.0, 4.0], [0.0, 2.0]]))
        np.testing.assert_allclose(unit, [[0.6, 0.8], [0.0, 1.0]], rtol=1e-6)

    def test_a_zero_row_stays_zero(self) -> None:
        assert np.all(l2_normalise(np.zeros((1, 4))) == 0.0)
