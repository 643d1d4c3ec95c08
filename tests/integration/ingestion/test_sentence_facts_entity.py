"""A figure stated in a sentence is filed under the company or segment the sentence is about.

Sentences beside a table become facts of the one entity the tables are about. With the ACME
glossary (a group and its regions), a document whose tables are one region's files only the
sentences under those tables' own heading as that region's; a section on the group is not the
region's. A sentence naming another entity ("Japan revenue") is not read as the tables' entity's.
"""

from __future__ import annotations

from tests.support.markdown_facts import markdown_facts


def _facts(markdown: str) -> set[tuple[str, str, str, float]]:
    return {(f.metric_code, f.entity, f.period, float(f.value)) for f in markdown_facts(markdown, "report.md")}


SEGMENT = """\
# Hong Kong segment results

Hong Kong results were as follows (in USD millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Revenue | 120.0 | 110.0 |

Revenue was $100.0 million in 2022.

## Group overview

Group revenue was $900.0 million in 2021. Revenue was $800.0 million in 2020.
"""

GROUP = """\
# ACME Group results

Group results were as follows (in USD millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Revenue | 1,200.0 | 1,100.0 |

Revenue was $1,000.0 million in 2022. Japan revenue was $300.0 million in 2021.
"""


def test_a_segments_tables_take_only_the_sentences_under_their_heading() -> None:
    facts = _facts(SEGMENT)
    assert ("REVENUE", "ACME_HK", "2022", 100.0) in facts  # under the segment's own heading
    assert not {f for f in facts if f[2] in ("2021", "2020")}  # the group's section is not the segment's


def test_a_sentence_naming_another_entity_is_not_the_tables_entitys() -> None:
    facts = _facts(GROUP)
    assert ("REVENUE", "ACME_GROUP", "2022", 1000.0) in facts
    assert not {f for f in facts if f[2] == "2021"}  # Japan's figure, never the group's
