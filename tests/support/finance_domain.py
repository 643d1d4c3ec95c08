"""A domain folder as ``ragspine domain init`` writes it, with the shipped finance pack included."""

from __future__ import annotations

from pathlib import Path

from ragspine.domain.starter import init_domain


def finance_domain(root: Path) -> Path:
    """``ragspine domain init`` in ``root / "domain"`` plus ``include: [finance]``; the folder."""
    folder = root / "domain"
    init_domain(folder)
    domain_yaml = folder / "domain.yaml"
    domain_yaml.write_text(domain_yaml.read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    return folder
