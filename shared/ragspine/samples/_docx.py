"""Build the Word documents: the two Chinese MD&As and the restricted board minutes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import docx

from ragspine.samples._ooxml import FIXED_TIMESTAMP, normalize_package
from ragspine.samples._texts import (
    BOARD_MARKING,
    BOARD_SECTIONS,
    BOARD_TITLE,
    MDA_INTRO,
    MDA_SECTIONS,
    MDA_TITLES,
    Section,
)

if TYPE_CHECKING:
    from pathlib import Path

    from docx.document import Document


def build_mda(path: Path, fiscal_year: str) -> None:
    """Write the Chinese management discussion of ``fiscal_year``, one Heading 1 per entity."""
    document = _new_document(MDA_TITLES[fiscal_year])
    document.add_heading(MDA_TITLES[fiscal_year], level=0)
    document.add_paragraph(MDA_INTRO)
    _add_sections(document, MDA_SECTIONS[fiscal_year])
    _save(document, path)


def build_board_minutes(path: Path) -> None:
    """Write the board minutes, marked restricted in the page header and the first line."""
    document = _new_document(BOARD_TITLE)
    document.core_properties.keywords = "CONFIDENTIAL; RESTRICTED"
    document.sections[0].header.paragraphs[0].text = BOARD_MARKING
    marking = document.add_paragraph()
    marking.add_run(BOARD_MARKING).bold = True
    document.add_heading(BOARD_TITLE, level=0)
    _add_sections(document, BOARD_SECTIONS)
    _save(document, path)


def _new_document(title: str) -> Document:
    """Create a document whose core properties carry no clock or user name."""
    document = docx.Document()
    props = document.core_properties
    props.title = title
    props.author = "ACME sample corpus"
    props.last_modified_by = "ACME sample corpus"
    props.revision = 1
    props.created = FIXED_TIMESTAMP
    props.modified = FIXED_TIMESTAMP
    return document


def _add_sections(document: Document, sections: tuple[Section, ...]) -> None:
    """Add each heading as Heading 1 followed by its paragraphs."""
    for heading, paragraphs in sections:
        document.add_heading(heading, level=1)
        for text in paragraphs:
            document.add_paragraph(text)


def _save(document: Document, path: Path) -> None:
    """Save and pin the package bytes."""
    document.save(str(path))
    normalize_package(path)
