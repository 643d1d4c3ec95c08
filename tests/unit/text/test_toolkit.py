"""Properties of the text toolkit that its users rely on, over any mix of scripts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.text import CJK, HAN, HIRAGANA, Tokenizer, document_tokens, query_tokens

_HAN_CHARS = "香港收入会议纪要"
_HIRAGANA_CHARS = "のをは"
MIXED = st.text(alphabet=st.sampled_from(f"abcXYZ019 .,-%&ＡＢ０１ｶﾙﾃ{_HAN_CHARS}{_HIRAGANA_CHARS}カルテ・ー한국éü々"),
                max_size=40)


@settings(deadline=None)  # a loaded machine must not fail a property test
@given(MIXED)
def test_a_query_equal_to_a_chunk_finds_every_one_of_its_terms_in_it(text: str) -> None:
    assert set(query_tokens(text)) <= set(document_tokens(text))


@settings(deadline=None)  # a loaded machine must not fail a property test
@given(MIXED)
def test_full_width_and_case_do_not_change_tokens(text: str) -> None:
    wide = text.translate({ord(c): ord(c) + 0xFEE0 for c in "abcXYZ019"})
    assert document_tokens(wide.upper()) == document_tokens(text)


@settings(deadline=None)  # a loaded machine must not fail a property test
@given(MIXED)
def test_runs_split_by_script_never_mix_scripts_in_a_bigram(text: str) -> None:
    split = Tokenizer(scripts=(HAN, HIRAGANA), distinct=True)
    for token in split.tokens(text):
        if split.is_cjk(token) and len(token) == 2:
            assert set(token) <= set(_HAN_CHARS) or set(token) <= set(_HIRAGANA_CHARS)


def test_options_change_what_a_user_gets() -> None:
    text = "契約書の要約 Policies"
    assert Tokenizer(scripts=(CJK,)).tokens(text) == ["契約", "約書", "書の", "の要", "要約", "policies"]
    by_script = Tokenizer(scripts=(HAN, HIRAGANA), stopwords=frozenset({"policies"}))
    assert by_script.tokens(text) == ["契約", "約書", "の", "要約"]
    assert Tokenizer(scripts=(HAN, HIRAGANA), single=HAN, stem=lambda w: w[:-1]).tokens(text) == [
        "契約", "約書", "要約", "policie"]


_COUNTERS = "世年月日号第章回位"
_WIDE_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")


@settings(deadline=None)  # a loaded machine must not fail a property test
@given(MIXED)
def test_number_joins_only_add_tokens_and_each_is_a_number_then_one_cjk_character(text: str) -> None:
    plain = Tokenizer(numbers=True, unigrams=True)
    joined = Tokenizer(numbers=True, unigrams=True, joins=True)
    extra = joined.tokens(text)
    for token in plain.tokens(text):
        extra.remove(token)  # every plain token is still there, as often
    for token in extra:
        assert token[:-1].replace(".", "").isdigit() and joined.is_cjk(token[-1]), token


@settings(deadline=None)  # a loaded machine must not fail a property test
@given(st.integers(min_value=0, max_value=99_999), st.sampled_from(_COUNTERS), st.booleans(), st.booleans())
def test_a_number_written_onto_a_counter_is_one_token_in_either_width(number: int, counter: str, wide: bool,
                                                                       spaced: bool) -> None:
    digits = str(number).translate(_WIDE_DIGITS) if wide else str(number)
    # THEN "16世" (or "１６世") reads as a token of its own, in documents and queries alike,
    # except a year ("2024年"), which its four digits already name...
    written = f"ルイ{digits}{counter}の"
    year = len(str(number)) == 4 and counter == "年"
    assert (f"{number}{counter}" in document_tokens(written)) is not year
    assert (f"{number}{counter}" in query_tokens(written)) is not year
    # ...and only when the two touch: a space keeps the number and the character apart
    if spaced:
        assert f"{number}{counter}" not in document_tokens(f"ルイ{digits} {counter}の")


def test_joins_follow_the_number_not_the_word_before_it() -> None:
    assert query_tokens("ルイ16世が1945年9月に") == [
        "ルイ", "16", "世が", "16世", "1945", "年", "9", "月に", "9月"]
    # a Latin word against CJK stays two tokens (entity codes like ACME_JP事業 keep their reading)
    assert document_tokens("ACME_JP事業") == ["acme", "jp", "事", "業", "事業"]
