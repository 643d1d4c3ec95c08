"""How an answer says it put figures of one currency on one scale before computing with them.

The change line of the structured channel and the question-level arithmetic both rescale (百万円 and
十億円, €m and €'000) and say so in the same words.
"""

from __future__ import annotations

from types import MappingProxyType

from ragspine.qa.language import Lang

RESCALED = MappingProxyType({
    Lang.ZH: "（{units} 已换算为 {target}）",
    Lang.EN: " ({units} put on the scale of {target})",
    Lang.JA: "（{units} は {target} に単位をそろえて計算）",
})
