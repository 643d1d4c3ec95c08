"""A unit note in the sentence leading into a table, set after the table (an extract listing its paragraphs after it).

However many paragraphs of other matters stand between (to the next heading, within 10,000 characters), a line
pointing forward with no table after it leads the table before it, and its unit note is that table's.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.markdown_facts import markdown_facts

_TABLE = "| | 2019 | 2018 |\n| --- | --- | --- |\n| Severance | $7,169 | $7,845 |\n| Advisory | 1,286 | 2,802 |"
_PARAGRAPH = "Restructuring charges include the costs of the plan announced in the year and its later revisions. " * 4
_LEADS = {"thousands": "USD_K", "millions": "USD_M"}


def _units(text: str) -> set[str]:
    return {f.unit for f in markdown_facts(text) if f.value in (7169, 1286)}


@settings(max_examples=25, deadline=None)
@given(paragraphs=st.integers(min_value=0, max_value=20), scale=st.sampled_from(sorted(_LEADS)),
       lead=st.sampled_from(["The following table summarizes restructuring costs by type (in {}):",
                             "Restructuring costs were as follows (in {}):",
                             "Refer to the table below, which sets out the costs (dollars in {}) for each year:"]))
def test_the_leading_sentence_set_after_other_paragraphs_gives_the_table_its_unit(paragraphs: int, scale: str,
                                                                                  lead: str) -> None:
    between = "\n\n".join([_PARAGRAPH] * paragraphs)
    text = f"# Annual report excerpt\n\n{_TABLE}\n\n{between}\n\n{lead.format(scale)}\n"

    assert _units(text) == {_LEADS[scale]}


def test_a_leading_sentence_after_the_next_heading_is_no_unit_of_the_table() -> None:
    text = (f"# Annual report excerpt\n\n{_TABLE}\n\n{_PARAGRAPH}\n\n# Other matters\n\n"
            "Restructuring costs were as follows (in millions):\n")

    assert _units(text) == {""}


@settings(max_examples=25, deadline=None)
@given(scale=st.sampled_from(sorted(_LEADS)), breaks=st.lists(st.booleans(), min_size=3, max_size=3))
def test_a_leading_sentence_hard_wrapped_inside_its_unit_note_still_gives_the_unit(scale: str,
                                                                                   breaks: list[bool]) -> None:
    words = ["Restructuring", "costs", "were", "as", "follows", f"(in {scale}):"]
    note = f"(in{chr(10) if breaks[0] else ' '}{scale}):"  # the bracket broken over two lines, or not
    lines = "\n".join([*words[:4], f"follows{chr(10) if breaks[1] else ' '}{note}"]) if breaks[2] else " ".join(words)
    text = f"# Annual report excerpt\n\n{_TABLE}\n\n{_PARAGRAPH}\n{lines}\n"

    assert _units(text) == {_LEADS[scale]}
