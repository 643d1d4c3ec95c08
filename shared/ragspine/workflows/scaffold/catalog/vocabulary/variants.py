"""Five output variants; ``standard`` adds nothing to titles or prompts.

The order is the generator's order: changing it changes ``descriptors.jsonl``.
"""

from __future__ import annotations

from ragspine.workflows.scaffold.catalog.model import Localized as L
from ragspine.workflows.scaffold.catalog.vocabulary.terms import Variant

VARIANTS: tuple[Variant, ...] = (
    Variant("standard", L("标准版", "Standard", "標準版"), L("", "", ""), "", ()),
    Variant(
        "brief", L("简明版", "Brief", "簡潔版"),
        L("，输出简短精炼", ", in a short and concise form", "（簡潔に出力）"),
        "Keep it under 100 words.",
        ("brief", "short", "concise", "简明", "简短", "簡潔"),
    ),
    Variant(
        "detailed", L("详细版", "Detailed", "詳細版"),
        L("，输出详尽并附说明", ", in depth with explanations", "（詳しい説明付き）"),
        "Be thorough and explain your reasoning.",
        ("detailed", "in-depth", "thorough", "详细", "详尽", "詳細"),
    ),
    Variant(
        "structured", L("结构化JSON", "Structured JSON", "構造化JSON"),
        L("，以结构化 JSON 输出", ", as structured JSON", "（構造化JSONで出力）"),
        "Return only a JSON object with the keys {keys}.",
        ("json", "structured", "machine-readable", "结构化", "構造化"),
    ),
    Variant(
        "bullets", L("要点列表", "Bullet Points", "箇条書き"),
        L("，以要点列表呈现", ", as a bulleted list", "（箇条書きで出力）"),
        "Answer as a bulleted list.",
        ("bullet points", "list", "要点", "列表", "箇条書き"),
    ),
)
