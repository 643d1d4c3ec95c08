"""Glossary packs: shipped fragments a domain folder includes (``include: [finance]`` in ``domain.yaml``).

A pack holds metrics, units and filler words. They are merged under the domain's own glossary:
an entry the domain defines under the same code is the domain's, taking from the pack only its
formula (when the entry has none) and the names no other entry uses; a pack alias the domain
already uses for one of its own entries stays the domain's. Pack amounts (unit ``MONEY``) are
kept in the domain's own money unit.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ragspine.domain.marks import read_marked
from ragspine.facts.unit_scales import money_unit

# The pack file's schema is schemas.PackFile: reading and merging packs needs no pydantic.
PACK_SUFFIX = ".yaml"
PACK_MONEY = "MONEY"  # a pack's amounts: kept in the domain's own money unit once included


def normalize_text(text: str) -> str:
    """NFKC and lower case: the form the glossary matches aliases in (kept here: the glossary reads packs)."""
    return unicodedata.normalize("NFKC", text).lower()


def packs_dir() -> Path:
    """The folder of the shipped packs."""
    return Path(str(resources.files("ragspine") / "shipped_domains" / "packs"))


def shipped_packs() -> list[str]:
    """The names of the shipped packs (``finance`` ...)."""
    return sorted(p.stem for p in packs_dir().glob(f"*{PACK_SUFFIX}"))


def pack_path(name: str) -> Path | None:
    """The file of pack ``name``, or None when no such pack is shipped."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    path = packs_dir() / f"{name}{PACK_SUFFIX}"
    return path if path.is_file() else None


def included_packs(folder: Path) -> list[str]:
    """The pack names ``folder/domain.yaml`` includes (read leniently: ``domain check`` judges the file)."""
    try:
        data = read_marked(folder / "domain.yaml").data
    except Exception:  # noqa: BLE001 - a missing or broken domain.yaml is reported by its own check
        return []
    include = data.get("include") if isinstance(data, dict) else None
    return [str(n) for n in include] if isinstance(include, list) else []


def _enriched(own: Mapping[str, Any], spec: Mapping[str, Any], taken: set[str]) -> dict[str, Any]:
    """The domain's entry with what it leaves out from the pack: the formula, and names no other entry uses."""
    entry = dict(own or {})
    if "formula" in spec and "formula" not in entry:
        entry["formula"] = spec["formula"]
    extra = [a for a in spec.get("aliases", []) if normalize_text(str(a)).strip() not in taken]
    if extra:
        entry["aliases"] = [*entry.get("aliases", []), *extra]
        taken.update(normalize_text(str(a)).strip() for a in extra)
    return entry


def money_unit_of(glossary: Mapping[str, Any]) -> str | None:
    """The unit the domain keeps money in: its unit of its own currency, else the unit of a money metric."""
    currency = glossary.get("currency")
    for code, spec in (glossary.get("units") or {}).items():
        if (spec or {}).get("currency") and (currency is None or spec.get("currency") == currency):
            return str(code)
    for spec in (glossary.get("metrics") or {}).values():
        unit = str((spec or {}).get("unit", ""))
        if money_unit(unit) is not None:
            return unit
    return None


def merge_pack(glossary: Mapping[str, Any], pack: Mapping[str, Any]) -> dict[str, Any]:
    """``glossary`` with the pack's metrics and units added beneath its own entries."""
    merged = dict(glossary)
    taken = {normalize_text(str(alias)).strip()
             for section in ("metrics", "entities", "channels")
             for code, spec in (glossary.get(section) or {}).items()
             for alias in [code, *(spec or {}).get("aliases", [])]}
    metrics = dict(glossary.get("metrics") or {})
    money = money_unit_of(glossary)
    for code, spec in (pack.get("metrics") or {}).items():
        if code in metrics:
            metrics[code] = _enriched(metrics[code], spec, taken)
            continue
        entry = dict(spec)
        if entry.get("unit") == PACK_MONEY and money is not None:
            entry["unit"] = money
        entry["aliases"] = [a for a in entry.get("aliases", []) if normalize_text(str(a)).strip() not in taken]
        metrics[code] = entry
        taken.update(normalize_text(str(a)).strip() for a in [code, *entry["aliases"]])
    merged["metrics"] = metrics
    merged["fillers"] = [*(glossary.get("fillers") or []), *(pack.get("fillers") or [])]
    if glossary.get("units"):  # a domain listing its units lists the pack's too; one without lists none
        units = {code: spec for code, spec in (pack.get("units") or {}).items()
                 if code != PACK_MONEY or money is None}
        units.update(glossary["units"])
        merged["units"] = units
    return merged
