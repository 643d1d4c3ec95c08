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
