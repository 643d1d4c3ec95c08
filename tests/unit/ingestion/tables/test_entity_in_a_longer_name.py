"""A heading naming a glossary entity only as a word of a longer name files nothing under that entity.

"Hemlock Semiconductor Group" is an investee, not the glossary's "group"; "South Korean tax
deposits" is not the region "South". A table under such a heading takes the company the heading
names (a heading that is a company's name) or else the document's company.
"""

from __future__ import annotations

import pytest

from tests.support.markdown_facts import markdown_facts


def _entities(heading: str) -> set[str]:
    text = f"# Notes\n\n## {heading}\n\n| | 2020 | 2019 |\n| --- | --- | --- |\n| Noncurrent assets | 725 | 420 |\n"
    return {f.entity for f in markdown_facts(text, "n.md")}


@pytest.mark.parametrize(("heading", "entity"), [("China Construction Bank deposits", "ACME_CN"),
                                                ("Japan Airlines fuel costs", "ACME_JP"),
                                                ("Hemlock Semiconductor Japan (HSJ)", "ACME_JP")])
def test_an_entity_word_inside_a_longer_name_is_not_the_entity(heading: str, entity: str) -> None:
    assert entity not in _entities(heading)


@pytest.mark.parametrize(("heading", "entity"), [("Japan", "ACME_JP"), ("Results in China", "ACME_CN"),
                                                ("Japan: key figures", "ACME_JP")])
def test_an_entity_named_on_its_own_is_the_entity(heading: str, entity: str) -> None:
    assert _entities(heading) == {entity}


@pytest.mark.parametrize(("heading", "entity"), [("ACME Japan revenue (USD millions)", "ACME_JP"),
                                                ("Acme China results", "ACME_CN")])
def test_the_company_s_own_name_beside_its_entity_is_that_entity(heading: str, entity: str) -> None:
    assert _entities(heading) == {entity}
