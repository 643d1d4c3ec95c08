"""Where the catalog's package data lives and how it is read."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

PACKAGE = "ragspine.workflows.scaffold.catalog"
TEMPLATE_DIR = "templates"
TEMPLATE_INDEX = "index.json"
DATA_DIR = "data"
DESCRIPTORS_FILE = "descriptors.jsonl"


def read_text(*parts: str) -> str:
    """Return one package-data file as UTF-8 text, e.g. ``read_text("templates", "index.json")``."""
    node = resources.files(PACKAGE)
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


def template_index() -> list[dict[str, Any]]:
    """Return the curated templates' sidecar index (ids, titles, facets, files)."""
    data = json.loads(read_text(TEMPLATE_DIR, TEMPLATE_INDEX))
    if not isinstance(data, list):
        raise TypeError("templates/index.json must hold a JSON array")
    return [dict(item) for item in data]


def descriptor_lines() -> list[str]:
    """Return the non-empty lines of the generated ``descriptors.jsonl``."""
    return [line for line in read_text(DATA_DIR, DESCRIPTORS_FILE).splitlines() if line]
