"""Sentence vectors from token vectors: attention-masked mean pooling and L2 normalisation.

This is the pooling all-MiniLM-L6-v2 was trained with (sentence-transformers' ``Pooling`` with
``pooling_mode_mean_tokens``): padding positions must not count toward the mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

# Guards against dividing by zero for an all-padding row or an all-zero vector.
_EPSILON = 1e-12


def mean_pool(hidden: npt.NDArray[np.floating], mask: npt.NDArray[np.integer]) -> npt.NDArray[np.float32]:
    """Average each row's token vectors where ``mask`` is 1.

    Args:
        hidden: token vectors, shape ``(batch, tokens, dim)``.
        mask: the attention mask, shape ``(batch, tokens)``, 1 for real tokens and 0 for padding.

    Returns:
        One vector per row, shape ``(batch, dim)``.
    """
    weights = mask.astype(np.float32)[:, :, None]
    summed = (hidden.astype(np.float32) * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), _EPSILON)
    pooled: npt.NDArray[np.float32] = (summed / counts).astype(np.float32)
    return pooled


def l2_normalise(vectors: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """Scale each row to unit length (an all-zero row stays zero).

    Args:
        vectors: shape ``(batch, dim)``.

    Returns:
        The rows divided by their Euclidean norms, as float32.
    """
    as64 = vectors.astype(np.float64)
    norms = np.maximum(np.linalg.norm(as64, axis=1, keepdims=True), _EPSILON)
    unit: npt.NDArray[np.float32] = (as64 / norms).astype(np.float32)
    return unit
