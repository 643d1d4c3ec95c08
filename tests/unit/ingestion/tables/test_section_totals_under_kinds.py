"""A ``Total`` under a section heading, in columns naming kinds of figures: the section's total of each kind.

``Total`` closing the finite-lived rows under ``Gross Carrying Amount`` is the gross carrying
amount of the finite-lived assets, never the table's whole gross carrying amount (the grand total
further down); its locator names the section.
"""

from __future__ import annotations

from tests.support.markdown_facts import markdown_table_facts

ROWS = [["", "2019", ""], ["", "Gross Carrying Amount", "Net"],
        ["Finite-Lived Intangible Assets", "", ""],
        ["Dealer relationships", "1,597.6", "1,098.9"], ["Licensed rights", "3.4", "1.9"], ["Total", "1,601.0", "1,100.8"],
        ["Indefinite-Lived Intangible Assets", "", ""],
        ["Certifications", "3.5", "3.5"], ["Total", "1,619.0", "1,118.8"]]


def test_a_sections_total_is_named_by_its_section_and_the_columns_kind() -> None:
    facts = markdown_table_facts(ROWS, "Intangible assets (USD million)")
    totals = {(f.metric_code, f.value, f.source_locator) for f in facts if f.value in (1601.0, 1619.0)}

    assert totals == {("label:gross carrying amount: total finite-lived intangible assets", 1601.0,
                       "table=1,row=Finite-Lived Intangible Assets: Total,col=2019/Gross Carrying Amount")}
