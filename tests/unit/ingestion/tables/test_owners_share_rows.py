"""The company's own share of net earnings, named by the company's name, read as its shareholders' share.

Only the company the table is about, and only in a table splitting off the noncontrolling interests
(the statement itself): the same words in a table of per-share rows, whose "Basic earnings per share:"
heading a PDF table's grid keeps no row for, are a figure per share.
"""

from __future__ import annotations

from ragspine.ingestion.table_owners_share import owners_share, splits_off_noncontrolling


def test_the_company_s_name_after_attributable_to_reads_as_its_shareholders() -> None:
    assert owners_share("Net earnings attributable to Harlow Foods", ["harlow foods"]) == \
        "Net earnings attributable to shareholders"
    assert owners_share("Net income attributable to Harlow Foods Inc.", ["Harlow Foods"]) == \
        "Net income attributable to shareholders"


def test_another_company_s_name_or_the_noncontrolling_interests_read_as_no_one_s_shareholders() -> None:
    assert owners_share("Net earnings attributable to Brightwater Mills", ["harlow foods"]) == ""
    assert owners_share("Net earnings attributable to noncontrolling interests", ["harlow foods"]) == ""
    assert owners_share("Net earnings", ["harlow foods"]) == ""


def test_only_a_table_splitting_off_the_noncontrolling_interests_is_the_statement() -> None:
    statement = [("Net earnings, including noncontrolling interests",),
                 ("Net earnings attributable to non-controlling interests",),
                 ("Net earnings attributable to Harlow Foods",)]
    per_share = [("Net earnings attributable to Harlow Foods",), ("Weighted average basic shares outstanding",)]
    assert splits_off_noncontrolling(statement)
    assert not splits_off_noncontrolling(per_share)
