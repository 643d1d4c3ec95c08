"""The FAQ short-circuit: curated answers matched deterministically, each with its own source."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from ragspine.bootstrap import domain_dir
from ragspine.errors import ConfigurationError
from ragspine.qa.answer import answer_question
from ragspine.qa.faq import FaqEntry, FaqIndex, ascii_held, count_ceiling, faq_key, presence_ceiling, reach_ceiling
from ragspine.qa.result import AnswerStatus, Route
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.llm import RecordingEmbedder
from tests.fakes.narrative import StaticRetriever
from tests.fakes.qa import make_qa


def ratio_ceiling(key: Counter[str], length: int, other: Counter[str], other_length: int) -> float:
    """The bound the look-up's ceilings are held to: ``fuzz.ratio`` is ``200 * LCS / (len(a) + len(b))``, and a
    common subsequence uses each character at most as often as the text with fewer of it holds it."""
    shared = sum(min(key[char], other[char]) for char in key.keys() & other.keys())
    return 200.0 * shared / (length + other_length)


@pytest.fixture(scope="module")
def faq() -> FaqIndex:
    return FaqIndex.from_file(domain_dir() / "faq.yaml")


@pytest.mark.parametrize(("question", "entry_id"), [
    ("How is ACME's fiscal year defined?", "fiscal_year_definition"),
    ("how is acme's fiscal year defined", "fiscal_year_definition"),  # case and punctuation
    ("How is ACMEs fiscal year defined??", "fiscal_year_definition"),
    ("ACME的财年是如何定义的", "fiscal_year_definition"),
    ("返品は何日以内にできますか", "returns_window"),
    ("What membership tiers does ACME offer", "membership_tiers"),
    ("What membership tier does ACME offer?", "membership_tiers"),  # fuzzy: a plural dropped
])
def test_variants_match_their_entry(faq: FaqIndex, question: str, entry_id: str) -> None:
    hit = faq.match(question)
    assert hit is not None and hit.entry.entry_id == entry_id


@pytest.mark.parametrize("question", ["What was Japan's revenue in 2024?", "退货", "Why did margins fall?"])
def test_unrelated_questions_do_not_match(faq: FaqIndex, question: str) -> None:
    assert faq.match(question) is None


def test_a_hit_short_circuits_with_its_own_source(faq: FaqIndex) -> None:
    retriever = StaticRetriever()
    result = answer_question("How long do I have to return an item?",
                             qa=make_qa(InMemoryFactStore(), faq=faq, retriever=retriever))
    assert (result.route, result.status) == (Route.FAQ, AnswerStatus.FOUND)
    assert result.sources == ({"doc": "ACME_Product_Policy.md", "locator": "heading=Returns"},)
    assert "30 days" in result.answer and "（来源：ACME_Product_Policy.md · heading=Returns）" in result.answer
    assert retriever.queries == []  # no channel ran


def test_an_entry_without_a_source_is_refused_at_load_time() -> None:
    raw = {"entries": [{"id": "x", "questions": ["q"], "answer": "a", "source": {"doc": "", "locator": "l"}}]}
    with pytest.raises(ConfigurationError, match="source"):
        FaqIndex.from_mapping(raw)


class TestMatchingByMeaning:
    """With an embedder the FAQ also matches paraphrases; the embedder runs only when needed."""

    @staticmethod
    def _faq(embedder: RecordingEmbedder, **kwargs: float) -> FaqIndex:
        index = FaqIndex.from_file(domain_dir() / "faq.yaml")
        return index.with_embedders(embedder, embedder, threshold=kwargs.get("threshold", 0.4),
                                    margin=kwargs.get("margin", 0.0), ignore=("ACME",))

    def test_a_paraphrase_the_fuzzy_match_misses_is_matched_by_meaning(self) -> None:
        hit = self._faq(RecordingEmbedder(dimension=256)).match("Which currency and which unit are figures in?")
        assert hit is not None and (hit.entry.entry_id, hit.method) == ("reporting_unit", "semantic")

    def test_an_exact_or_fuzzy_hit_never_calls_the_embedder(self) -> None:
        embedder = RecordingEmbedder()
        faq = self._faq(embedder)
        assert faq.match("How is ACME's fiscal year defined?") is not None
        assert faq.match("What membership tier does ACME offer?") is not None
        assert embedder.texts == []

    def test_the_entries_are_embedded_once_and_each_question_once(self) -> None:
        embedder = RecordingEmbedder()
        faq = self._faq(embedder)
        faq.match("first unrelated question about stores")
        faq.match("second unrelated question about stores")
        entry_texts = sum(len(e.questions) for e in faq.entries) + len(faq.entries)
        assert len(embedder.texts) == entry_texts + 2

    def test_the_company_name_is_left_out_of_what_is_compared(self) -> None:
        embedder = RecordingEmbedder()
        self._faq(embedder).match("What currency are ACME's figures reported in?")
        assert "What currency are figures reported in?" in embedder.texts
        assert not any("ACME" in text for text in embedder.texts)

    def test_no_clear_winner_is_no_hit(self) -> None:
        # Every entry within the margin of the best: a guess, so no FAQ answer.
        assert self._faq(RecordingEmbedder(), threshold=0.01, margin=0.99).match("membership tiers") is None

    def test_a_failing_embedder_means_no_hit_not_an_error(self) -> None:
        assert self._faq(RecordingEmbedder(fail=True)).match("Which currency are figures in?") is None

    def test_a_figure_question_is_not_embedded_and_a_paraphrase_is_answered_from_the_faq(self) -> None:
        embedder = RecordingEmbedder(dimension=256)
        retriever = StaticRetriever()
        qa = make_qa(InMemoryFactStore(), faq=self._faq(embedder), retriever=retriever)
        answer_question("What was Japan's revenue in 2024?", qa=qa)
        assert embedder.texts == []  # a metric was asked: structured, the FAQ stays lexical
        result = answer_question("Which currency and which unit are figures in?", qa=qa)
        assert (result.route, result.sources) == (Route.FAQ, ({"doc": "ACME_FY2024_Review.pptx",
                                                              "locator": "slide=1"},))
        assert retriever.queries == []

    def test_out_of_range_settings_are_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="semantic"):
            FaqIndex.from_file(domain_dir() / "faq.yaml").with_embedders(RecordingEmbedder(), RecordingEmbedder(),
                                                                         threshold=1.5)


# Texts of a few letters from a small alphabet (Latin and CJK), so that pairs share characters and
# their fuzzy ratios fall on both sides of any threshold.
_TEXTS = st.text(alphabet="abcdeé财年定义返品", min_size=1, max_size=12)


@given(_TEXTS, _TEXTS)
def test_the_ratio_ceiling_is_never_under_the_fuzzy_ratio(text: str, other: str) -> None:
    ceiling = ratio_ceiling(Counter(text), len(text), Counter(other), len(other))
    assert ceiling >= fuzz.ratio(text, other) - 1e-9


@given(_TEXTS, _TEXTS)
def test_the_count_ceiling_is_the_ratio_ceiling(text: str, other: str) -> None:
    # counted from the other text's distinct characters alone, it keeps and drops the keys the full count does
    counted = Counter(other)
    ceiling = count_ceiling(text, tuple(counted), tuple(counted.values()), len(other))
    assert ceiling == ratio_ceiling(Counter(text), len(text), counted, len(other))


@given(_TEXTS, _TEXTS)
def test_the_presence_ceiling_is_never_under_the_ratio_ceiling(text: str, other: str) -> None:
    # a key it leaves out could not have passed the count bound either: the keys scored are the same
    presence = presence_ceiling(text, dict.fromkeys(map(ord, other)), len(other))
    assert presence >= ratio_ceiling(Counter(text), len(text), Counter(other), len(other))


@given(_TEXTS, _TEXTS, st.text(alphabet="abcdeé财年定义返品", max_size=8))
def test_the_reach_ceiling_is_never_under_the_fuzzy_ratio(text: str, other: str, more: str) -> None:
    # the other text is written in the alphabet (its own characters and perhaps more)
    ceiling = reach_ceiling(len(text), sum(map(frozenset(other + more).__contains__, text)))
    assert ceiling >= fuzz.ratio(text, other) - 1e-9


_ASCII = st.text(alphabet=st.characters(max_codepoint=127), max_size=40)


@given(_ASCII, _ASCII, st.text(alphabet="abcdeé财年定义返品", max_size=6))
def test_an_ascii_key_is_counted_over_its_bytes_as_over_its_characters(text: str, other: str, more: str) -> None:
    # GIVEN an ASCII question and another text, perhaps with characters beyond ASCII
    other += more
    key = faq_key(text)
    held = bytes(sorted({ord(char) for char in other if char.isascii()}))
    # THEN its key keeps the letters and digits the regex keeps, and the characters the other text holds
    # are counted as the presence and alphabet ceilings count them
    assert key == "".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower()))
    shared = ascii_held(key.encode("ascii"), held)
    assert shared == len(key) - len(key.translate(dict.fromkeys(map(ord, other))))
    assert shared == sum(map(frozenset(other).__contains__, key))
    if key:
        assert 200.0 * shared / (len(key) + shared) == reach_ceiling(len(key), sum(map(frozenset(other).__contains__, key)))
        assert 200.0 * shared / (len(key) + len(other)) == presence_ceiling(key, dict.fromkeys(map(ord, other)),
                                                                            len(other))


_FAQ = FaqIndex.from_file(domain_dir() / "faq.yaml")
_KEYS = [faq_key(q) for e in _FAQ.entries for q in e.questions]


@settings(max_examples=300)
@given(st.sampled_from(_KEYS), st.lists(st.tuples(st.integers(min_value=0, max_value=60),
                                                  st.text(alphabet="2024Q3年第季度xz毛利率日本香港", max_size=6)),
                                        max_size=4),
       st.floats(min_value=50, max_value=100))
def test_a_question_mostly_in_characters_no_key_holds_matches_as_every_key_would_give(
        key: str, inserts: list[tuple[int, str]], threshold: float) -> None:
    # GIVEN a curated question with figures, names and characters of no curated question written into it
    asked = key
    for at, text in inserts:
        asked = asked[:at] + text + asked[at:]
    faq = FaqIndex.from_file(domain_dir() / "faq.yaml", threshold=threshold)
    # WHEN it is matched (a question whose characters no key can reach looks at no key)
    hit = faq.match(asked, by_meaning=False)
    # THEN it is the hit, or the miss, that scoring every key gives
    asked_key = faq_key(asked)
    best = asked_key if asked_key in _KEYS else (
        process.extractOne(asked_key, _KEYS, scorer=fuzz.ratio, score_cutoff=threshold) or (None,))[0]
    expected = next((e.entry_id for e in faq.entries if any(faq_key(q) == best for q in e.questions)), None)
    assert (hit.entry.entry_id if hit else None) == expected


@settings(max_examples=200)
@given(st.sampled_from([q for e in FaqIndex.from_file(domain_dir() / "faq.yaml").entries for q in e.questions]),
       st.integers(min_value=0, max_value=40), st.text(alphabet="abcxyz的了", max_size=3),
       st.floats(min_value=50, max_value=100), st.integers(min_value=-6, max_value=6))
def test_a_fuzzy_match_is_the_one_every_key_would_give(question: str, at: int, typo: str, threshold: float,
                                                       longer: int) -> None:
    # GIVEN a curated question with a typo in it, some letters dropped or added (keys of other
    # lengths are left out by length first), and an index at a given threshold
    faq = FaqIndex.from_file(domain_dir() / "faq.yaml", threshold=threshold)
    cut = at + len(typo) + max(0, -longer)
    asked = question[:at] + typo + "x" * max(0, longer) + question[cut:]
    key = faq_key(asked)
    # WHEN it is matched (keys that cannot reach the threshold are never scored)
    hit = faq.match(asked, by_meaning=False)
    # THEN it is what the fuzzy matcher finds among every key of the index
    exact = next((e for e in faq.entries if any(faq_key(q) == key for q in e.questions)), None) if key else None
    best = process.extractOne(key, [faq_key(q) for e in faq.entries for q in e.questions], scorer=fuzz.ratio,
                              score_cutoff=threshold) if key and exact is None else None
    expected = exact.entry_id if exact else (
        next(e.entry_id for e in faq.entries if any(faq_key(q) == best[0] for q in e.questions)) if best else None)
    assert (hit.entry.entry_id if hit else None) == expected


@given(st.lists(st.text(alphabet="abcdeé财年定义返品の会員ランク2024", min_size=1, max_size=10), max_size=4),
       st.text(alphabet="abcdeé财年定义返品の会員ランク2024Q3季度xz-?", max_size=30))
def test_a_key_s_reachable_characters_are_counted_by_the_runs_as_by_the_alphabet(questions: list[str],
                                                                                 text: str) -> None:
    # GIVEN curated questions written in some characters, and a question's key in these and others
    faq = FaqIndex(tuple(FaqEntry(f"e{i}", (q,), "a", "d.md", "p1") for i, q in enumerate(questions)))
    key = faq_key(text)
    # THEN the runs the index finds hold as many characters as its keys' alphabet reaches
    assert len("".join(faq._held_runs().findall(key))) == sum(map(faq._alphabet.__contains__, key))
