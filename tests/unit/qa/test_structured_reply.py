"""The cited-answer JSON: its schema admits only the given passages, and its reading renders each one."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.citing import cite
from ragspine.qa.provenance import check_provenance
from ragspine.qa.structured_reply import answer_schema, read_structured
from tests.fakes.narrative import evidence

PASSAGES = [evidence(f"第{i}段资料说明了门店调整。", locator=f"heading=香港（ACME_HK）,para={i}") for i in range(1, 6)]


def reply(*pairs: tuple[str, object]) -> str:
    return json.dumps({"sentences": [{"text": t, "passage": p} for t, p in pairs]}, ensure_ascii=False)


class TestSchema:
    @pytest.mark.parametrize("passages", [1, 3, 5])
    def test_passage_is_an_enum_of_the_given_passage_numbers(self, passages: int) -> None:
        schema = answer_schema(passages)

        jsonschema.validate(json.loads(reply(("ok.", passages))), schema)
        for wrong in (0, passages + 1, 7, "1"):
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(json.loads(reply(("ok.", wrong))), schema)

    def test_a_sentence_needs_both_fields_and_nothing_else(self) -> None:
        schema = answer_schema(3)

        for bad in ({"sentences": [{"text": "ok."}]}, {"sentences": [{"passage": 1}]}, {"sentences": []},
                    {"sentences": [{"text": "ok.", "passage": 1, "source": "ACME.docx para=4"}]}, {"answer": "ok"}):
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(bad, schema)


class TestReading:
    def test_each_sentence_gets_its_passages_marker(self) -> None:
        assert read_structured(reply(("门店关闭", 2), ("客流减少。", 1)), 5) == "门店关闭。[2]客流减少。[1]"
        assert read_structured(reply(("Stores closed", 2), ("Visitors fell.", 1)), 5) == \
            "Stores closed.[2] Visitors fell.[1]"

    def test_markers_and_citation_lookalikes_in_the_text_are_dropped(self) -> None:
        text = "收入下降7.4%（ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=4）[7]【3】(see slide=3)"

        assert read_structured(reply((text, 1)), 5) == "收入下降7.4%。[1]"

    def test_a_bracket_that_is_prose_is_kept(self) -> None:
        assert read_structured(reply(("香港（ACME_HK）的门店关闭了。", 1)), 5) == "香港（ACME_HK）的门店关闭了。[1]"

    def test_a_passage_outside_the_given_ones_gets_no_marker(self) -> None:
        assert read_structured(reply(("门店关闭。", 7), ("客流减少。", "2")), 5) == "门店关闭。客流减少。"

    def test_placeholder_and_empty_sentences_are_skipped(self) -> None:
        assert read_structured(reply(("…", 1), ("  ", 2), ("门店关闭。", 3)), 5) == "门店关闭。[3]"
        assert read_structured(reply(("…", 1)), 5) == ""

    def test_a_reply_cut_mid_json_keeps_the_complete_sentences(self) -> None:
        cut = '{ "sentences": [{"text": "门店关闭。", "passage": 2}, {"text": "客流减\\"少'

        assert read_structured(cut, 5) == "门店关闭。[2]"

    def test_a_reply_cut_inside_its_first_text_keeps_that_texts_complete_sentences_not_the_json(self) -> None:
        cut = '{"sentences":[{"text":"中国内地收入增长。新店分布在二线城市。区域仓配网络的调整已'

        assert read_structured(cut, 5) == "中国内地收入增长。新店分布在二线城市。"
        assert read_structured('{"sentences":[{"text":"Prices rose. Margin recov', 5) == "Prices rose."
        assert read_structured('{"sentences":[{"text":"Prices ro', 5) == ""

    def test_raw_control_characters_and_bad_escapes_lose_a_sentence_not_the_reply(self) -> None:
        raw = '{"sentences": [{"text": "门店\n关闭。", "passage": 2}]}'
        cut = '{"sentences": [{"text": "门店\t关闭。", "passage": 2}, {"text": "客流\\x减少。", "passage": 1}, {"te'

        assert read_structured(raw, 5) == "门店 关闭。[2]"
        assert read_structured(cut, 5) == "门店 关闭。[2]"

    @pytest.mark.parametrize("text", ["门店关闭[1]。", "", "[1, 2]", '{"answer": "门店关闭"}', '["门店关闭"]',
                                      '{"sentences": "门店关闭"}'])
    def test_anything_but_the_schemas_json_is_not_read(self, text: str) -> None:
        assert read_structured(text, 5) is None


SENTENCE = st.text(st.sampled_from("门店关闭客流减少香港日本收入 abcXYZ,，、。"), min_size=1, max_size=30)
LOOKALIKE = st.builds(lambda doc, n: f"（{doc} heading=香港（ACME_HK）,para={n}）",
                      st.sampled_from(["ACME_FY2024_MDA.docx", "ACME_FY2024_Review.pptx", "ACME_JP_2025_Report.md"]),
                      st.integers(1, 99))
MARKER = st.builds(lambda n: f"[{n}]", st.integers(0, 999))


@given(st.lists(st.tuples(SENTENCE, st.lists(st.one_of(LOOKALIKE, MARKER), max_size=2), st.integers(1, 5)),
                min_size=1, max_size=6))
def test_whatever_the_text_says_the_citations_are_the_passage_fields(
        items: list[tuple[str, list[str], int]]) -> None:
    """Rendered, the answer cites exactly the passage fields, and no look-alike's number is left to check."""
    raw = reply(*[(text + "".join(extra), passage) for text, extra, passage in items])
    jsonschema.validate(json.loads(raw), answer_schema(5))

    read = read_structured(raw, 5)

    kept = [(text, passage) for text, _, passage in items if re.search(r"\w", text)]
    if not kept:
        assert read == ""
        return
    assert read is not None
    assert [int(n) for n in re.findall(r"\[(\d+)\]", read)] == [p for _, p in kept]
    cited = cite(read, PASSAGES)
    assert list(cited.used) == list(dict.fromkeys(p - 1 for _, p in kept))
    assert check_provenance(cited.text, evidence_texts=[p.text for p in PASSAGES], passages=5).ok
