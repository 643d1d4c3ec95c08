"""Headings that name a block of a report's data, not the figure its rows are parts of.

``Consolidated Statements of Operations Data:``, ``Balance Sheet Data:``, ``主要会计数据`` (key
accounting data) head the rows of a selected-data table the way a statement's title does: the
rows under them are the statement's own line items (``Operating income``, ``营业收入``), so such a
heading qualifies no row label (``主要会计数据: 归属于上市公司股东的净利润`` would match no question).
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import normalize_text

_DATA_BLOCK = re.compile(
    r"(?:^|(?<=\s))(?:consolidated\s+)?(?:(?:statements?|sheets?)\s+of\s+[a-z ,]+?|balance\s+sheets?|cash\s+flows?"
    r"|selected\s+(?:consolidated\s+)?financial|(?:other\s+)?financial|(?:other\s+)?operating|key)\s+data$"
    r"|^(?:主要)?(?:会计|會計|财务|財務)(?:数据|數據|指标|指標)(?:和(?:财务|財務)?(?:指标|指標))?$"
    r"|^主要(?:な)?経営指標(?:等)?(?:の推移)?$|^財務データ$")


def names_a_data_block(text: str) -> bool:
    """Whether a section heading or a heading over the label column names a block of report data."""
    return bool(_DATA_BLOCK.search(normalize_text(text).strip(" :：")))
