"""Merged-cell ranges of every worksheet, read straight from the package.

openpyxl's read-only mode streams cell values but does not expose merged ranges; loading the
workbook fully to get them would cost memory proportional to the whole sheet. The ranges sit
in each sheet part's ``<mergeCells>``, which this module reads with the standard library.
Element names are matched by local name so Strict OOXML namespaces are read as well.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import zipfile

# (min_row, min_col, max_row, max_col), 1-based, inclusive.
CellRange = tuple[int, int, int, int]


def merged_ranges(archive: zipfile.ZipFile) -> dict[str, list[CellRange]]:
    """Sheet name -> its merged ranges; sheets without merges are absent."""
    book_path = _office_document(archive)
    targets = _relationship_targets(archive, book_path)
    names = set(archive.namelist())
    result: dict[str, list[CellRange]] = {}
    for element in ET.fromstring(archive.read(book_path)).iter():
        if _local(element.tag) != "sheet":
            continue
        rel_id = next((value for key, value in element.attrib.items() if _local(key) == "id"), "")
        part = targets.get(rel_id, "")
        if part in names:
            ranges = list(_sheet_merges(archive, part))
            if ranges:
                result[element.get("name", "")] = ranges
    return result


def _sheet_merges(archive: zipfile.ZipFile, part: str) -> Iterator[CellRange]:
    from openpyxl.utils.cell import range_boundaries

    with archive.open(part) as stream:
        for _, element in ET.iterparse(stream, events=("end",)):
            name = _local(element.tag)
            if name == "mergeCell":
                try:
                    min_col, min_row, max_col, max_row = range_boundaries(element.get("ref", ""))
                except (ValueError, TypeError):
                    continue  # a damaged range only loses its fill, not the sheet
                if None not in (min_col, min_row, max_col, max_row):
                    yield (min_row, min_col, max_row, max_col)
            elif name == "row":
                element.clear()  # rows are not needed here; dropping them keeps memory flat


def _office_document(archive: zipfile.ZipFile) -> str:
    root_targets = _relationship_targets(archive, "")
    return next((path for kind, path in root_targets.items() if kind == "officeDocument"), "xl/workbook.xml")


def _relationship_targets(archive: zipfile.ZipFile, source: str) -> dict[str, str]:
    """Relationship id (and, for the package root, type) -> part path inside the zip."""
    folder, name = posixpath.split(source)
    rels_path = posixpath.join(folder, "_rels", f"{name}.rels")
    if rels_path not in set(archive.namelist()):
        return {}
    targets: dict[str, str] = {}
    for element in ET.fromstring(archive.read(rels_path)).iter():
        if _local(element.tag) != "Relationship":
            continue
        target = element.get("Target", "")
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        key = element.get("Id", "") if source else element.get("Type", "").rsplit("/", 1)[-1]
        targets[key] = path
    return targets


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
