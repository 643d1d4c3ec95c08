"""Deterministic generator of the catalog's 993 descriptors.

Every descriptor is one combination of the curated vocabularies (20 domains × 10 tasks × 5
variants = 1000), minus the 7 combinations the curated templates already claim. Nothing here
is random or time-dependent, so the output is byte-identical on every run.

Regenerate the package data with ``python -m ragspine.workflows.scaffold.catalog.generate``; add
``--check`` to fail (exit 1) when the committed file is stale instead of rewriting it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ragspine.workflows.scaffold.catalog.model import CatalogEntry, EntryOrigin, Localized, Recipe, RecipeKind
from ragspine.workflows.scaffold.catalog.resources import DATA_DIR, DESCRIPTORS_FILE, template_index
from ragspine.workflows.scaffold.catalog.vocabulary import DOMAINS, TASKS, VARIANTS, Domain, Task, Variant

OUTPUT = Path(__file__).resolve().parent / DATA_DIR / DESCRIPTORS_FILE
FIXED_GRAPH: tuple[str, ...] = ("start", "llm", "end")
_SAME_LANGUAGE = "Reply in the language of the input."

Facets = tuple[str, str, str]


def build_descriptors(templates: Sequence[dict[str, Any]] | None = None) -> list[CatalogEntry]:
    """Return the generated descriptors in the fixed vocabulary order.

    Args:
        templates: the curated templates' index; defaults to the packaged ``index.json``.

    Returns:
        One entry per (domain, task, variant) combination no curated template claims.
    """
    index = template_index() if templates is None else list(templates)
    claimed: dict[Facets, dict[str, Any]] = {
        (str(item["category"]), str(item["task"]), str(item["variant"])): item for item in index
    }
    by_id = {str(item["id"]): item for item in index}
    entries: list[CatalogEntry] = []
    for domain in DOMAINS:
        for task in TASKS:
            for variant in VARIANTS:
                if (domain.key, task.key, variant.key) not in claimed:
                    entries.append(_descriptor(domain, task, variant, claimed=claimed, templates=by_id))
    return entries


def render(entries: Iterable[CatalogEntry]) -> str:
    """Serialise entries as compact JSON Lines (one descriptor per line, UTF-8 text kept)."""
    lines = (json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":")) for entry in entries)
    return "".join(f"{line}\n" for line in lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check`` verify) ``data/descriptors.jsonl``; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file differs")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="file to write or check")
    args = parser.parse_args(argv)
    text = render(build_descriptors())
    current = args.output.read_bytes() if args.output.exists() else b""
    if args.check:
        stale = current != text.encode("utf-8")
        print(f"{args.output}: {'stale, regenerate it' if stale else 'up to date'}", file=sys.stderr)
        return 1 if stale else 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(text.encode("utf-8"))
    print(f"wrote {text.count(chr(10))} descriptors ({len(text.encode('utf-8'))} bytes) to {args.output}")
    return 0


def _descriptor(
    domain: Domain,
    task: Task,
    variant: Variant,
    *,
    claimed: dict[Facets, dict[str, Any]],
    templates: dict[str, dict[str, Any]],
) -> CatalogEntry:
    recipe = _recipe(domain, task, variant, claimed=claimed)
    mode, node_kinds = "workflow", FIXED_GRAPH
    if recipe.template is not None:
        template = templates[recipe.template]
        mode, node_kinds = str(template["mode"]), tuple(str(kind) for kind in template["node_kinds"])
    return CatalogEntry(
        id=f"gen-{domain.key}-{task.key}-{variant.key}",
        origin=EntryOrigin.GENERATED,
        mode=mode,
        category=domain.key,
        task=task.key,
        variant=variant.key,
        titles=_titles(domain, task, variant),
        description=Localized(
            zh=f"{task.summary.zh.format(s=domain.subject.zh)}{variant.phrase.zh}。",
            en=f"{task.summary.en.format(s=domain.subject.en)}{variant.phrase.en}.",
            ja=f"{task.summary.ja.format(s=domain.subject.ja)}{variant.phrase.ja}。",
        ),
        tags=tuple(dict.fromkeys((*domain.keywords, *task.keywords, *variant.keywords))),
        node_kinds=node_kinds,
        recipe=recipe,
    )


def _titles(domain: Domain, task: Task, variant: Variant) -> Localized:
    zh = task.title.zh.format(d=domain.name.zh)
    en = task.title.en.format(d=domain.name.en)
    ja = task.title.ja.format(d=domain.name.ja)
    if variant.key == "standard":
        return Localized(zh=zh, en=en, ja=ja)
    return Localized(zh=f"{zh}（{variant.name.zh}）", en=f"{en} ({variant.name.en})", ja=f"{ja}（{variant.name.ja}）")


def _recipe(domain: Domain, task: Task, variant: Variant, *, claimed: dict[Facets, dict[str, Any]]) -> Recipe:
    keys = ", ".join(f'"{key}"' for key in task.json_keys)
    parts = [f"Domain: {domain.role}.", task.instruction]
    if variant.instruction:
        parts.append(variant.instruction.format(keys=keys))
    if not any(item.variable == "target_language" for item in task.inputs):
        parts.append(_SAME_LANGUAGE)
    system_prompt = " ".join(parts)
    if task.template is not None:
        # A curated template that claims this domain and task (e.g. the support chatflow) wins
        # over the task's generic template.
        owner = next((item for facets, item in claimed.items() if facets[:2] == (domain.key, task.key)), None)
        template = task.template if owner is None else str(owner["id"])
        return Recipe(kind=RecipeKind.TEMPLATE, template=template, system_prompt=system_prompt)
    return Recipe(
        kind=RecipeKind.START_LLM_END,
        inputs=task.inputs,
        system_prompt=system_prompt,
        user_prompt=task.user_prompt,
        output=task.output,
    )


if __name__ == "__main__":
    raise SystemExit(main())
