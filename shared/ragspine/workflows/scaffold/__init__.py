"""Scaffolding: reuse a safe Dify workflow or generate one, from a description or a catalog entry."""

from __future__ import annotations

from ragspine.workflows.scaffold.from_catalog import scaffold_with_catalog
from ragspine.workflows.scaffold.scaffolder import (
    ModelSpec,
    Scaffold,
    ScaffoldOptions,
    scaffold_description,
    scaffold_dsl,
    scaffold_input,
)

__all__ = [
    "ModelSpec", "Scaffold", "ScaffoldOptions", "scaffold_description", "scaffold_dsl", "scaffold_input",
    "scaffold_with_catalog",
]
