"""A domain folder's glossary: its ``glossary.yaml`` (with the packs it includes) read against the schema."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ragspine.domain.files import GLOSSARY, read_file
from ragspine.facts.glossary import Glossary


def read_glossary(path: Path) -> Glossary:
    """Load a glossary YAML file, validated against its schema (problems name their line).

    Raises:
        ConfigurationError: the file is missing, is not YAML or breaks the schema.
    """
    return Glossary.from_mapping(read_file(path, GLOSSARY))


@lru_cache(maxsize=4)
def glossary_of(folder: Path) -> Glossary:
    """The glossary of the domain folder ``folder``, read once per process (several folders only in tests)."""
    return read_glossary(folder / GLOSSARY)
