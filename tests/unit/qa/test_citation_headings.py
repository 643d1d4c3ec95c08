"""A citation whose locator holds a sentence end ("Co., Ltd." in a heading) stays one citation.

The passages are a company's key-figures page: its heading is the company's legal name, so every
passage locator carries "Co., Ltd."; the answer quotes a paragraph with that citation, as the
extractive model writes it.
"""

from __future__ import annotations

from ragspine.llm.extractive import split_sentences
from ragspine.qa.citing import cite
from tests.fakes.narrative import evidence

DOC = "Hoshizora_Key_Figures_FY2025.md"
HEADING = "heading=Hoshizora Seiki Co., Ltd. - Key figures FY2025"
ABOUT = evidence("Hoshizora Seiki is a Japanese maker of precision components, medical devices and industrial "
                 "systems. Its fiscal year ends on March 31.", doc=DOC, locator=f"{HEADING},para=1")
FIGURES = evidence("Key figures FY2025 (¥ million unless stated)", doc=DOC, locator=HEADING)
CITATION = f"（来源：{DOC} {HEADING},para=1）"


def test_a_quoted_sentence_keeps_its_one_citation() -> None:
    answer = f"Hoshizora Seiki is a Japanese maker of precision components, medical devices and industrial systems.{CITATION}"
    cited = cite(answer, [ABOUT, FIGURES])
    assert cited.text == answer
    assert cited.text.count("（来源：") == 1
    assert cited.used == (0,)


def test_a_sentence_after_the_citation_is_cited_on_its_own() -> None:
    answer = (f"Hoshizora Seiki is a Japanese maker of precision components.{CITATION} "
              "Its fiscal year ends on March 31.")
    cited = cite(answer, [ABOUT, FIGURES])
    assert [sentence.strip() for sentence, _ in cited.sentences] == [
        f"Hoshizora Seiki is a Japanese maker of precision components.{CITATION}", "Its fiscal year ends on March 31."]
    assert cited.text.count("（来源：") == 2  # the second sentence tied to its passage, after the first citation


def test_a_company_form_does_not_end_a_sentence() -> None:
    text = "The shares of Hoshizora Seiki Co., Ltd. are listed in Tokyo. Sales rose 8.9%."
    assert split_sentences(text) == ["The shares of Hoshizora Seiki Co., Ltd. are listed in Tokyo.", "Sales rose 8.9%."]
    cited = cite(text, [ABOUT, FIGURES])
    assert len(cited.sentences) == 2
