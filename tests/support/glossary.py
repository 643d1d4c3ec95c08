"""The glossary of the domain folder the settings name, for tests that read questions or documents with it."""

from __future__ import annotations

from ragspine.bootstrap import domain_dir
from ragspine.domain.glossary_file import glossary_of
from ragspine.facts.glossary import Glossary


def default_glossary() -> Glossary:
    """The glossary of the configured domain folder (``bootstrap.domain_dir``), without the documents' own names."""
    return glossary_of(domain_dir())
