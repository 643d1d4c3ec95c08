"""The finance pack's metric names as words of any company's business, for a domain that does not include the pack.

A domain fresh from ``domain init`` lists a few business terms and its own metrics; "What is the
COGS for 2019?" names none of them, yet cost of goods sold is a line of every company's income
statement. The pack's metric names and aliases (any language) are the standard statement
vocabulary, so a question naming one is about the business, whatever the domain lists.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine.domain.packs import normalize_text
from ragspine.domain.standard_ratios import standard_pack_metrics
from ragspine.facts.matching import alias_pattern


@lru_cache(maxsize=1)
def standard_metric_names() -> re.Pattern[str]:
    """A pattern finding any of the pack's metric names in a question's screening form (read once)."""
    names: set[str] = set()
    for spec in standard_pack_metrics().values():
        written = [*(spec.get("aliases") or []), *(spec.get("names") or {}).values()]
        names.update(normalize_text(str(name)) for name in written if str(name).strip())
    return re.compile(alias_pattern(names))
