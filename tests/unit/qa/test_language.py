"""Which language a question is written in: kana is Japanese, other CJK ideographs Chinese, the rest English."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.language import Lang, detect_language

# The definition the reply language follows, as character classes: kana, then the Han ideographs.
KANA = re.compile(r"[\u3040-\u30ff]")
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Each block's edges and their neighbours, among ordinary letters, digits, punctuation and accents.
EDGES = "\u303f\u3040\u30ff\u3100\u33ff\u3400\u4e00\u9fff\ua000\uf8ff\uf900\ufaff\ufb00\uff1f\uac00"
TEXT = st.text(st.sampled_from(EDGES) | st.characters(codec="utf-8"), max_size=40)


def _by_classes(text: str) -> Lang:
    if KANA.search(text):
        return Lang.JA
    return Lang.ZH if HAN.search(text) else Lang.EN


@given(TEXT)
def test_the_language_is_that_of_the_script_classes(text: str) -> None:
    # GIVEN any text, with the edges of the kana and Han blocks among other characters
    # WHEN its language is detected
    # THEN it is Japanese with a kana, else Chinese with a Han ideograph, else English
    assert detect_language(text) == _by_classes(text)


def test_questions_in_each_language() -> None:
    # GIVEN a question in Chinese, Japanese and English, and ones whose only CJK character is a block's last
    # WHEN each language is detected
    # THEN each is the question's own
    assert detect_language("2024年日本的毛利率是多少") is Lang.ZH
    assert detect_language("2024年度の売上高はいくらですか") is Lang.JA
    assert detect_language("What was the gross margin of ACME Japan in FY2024?") is Lang.EN
    assert detect_language("Café margin？") is Lang.EN
    assert (detect_language("x\u9fff"), detect_language("x\ufaff"), detect_language("x\u30ff")) == (
        Lang.ZH, Lang.ZH, Lang.JA)
    assert detect_language("") is Lang.EN
