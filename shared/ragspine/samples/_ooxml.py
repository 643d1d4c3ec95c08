"""Make OOXML files (pptx, xlsx, docx) byte-for-byte reproducible.

The sample files' sha256 digests are the lineage recorded in facts.csv, so two builds must
produce identical bytes. The writer libraries stamp the current time in two places: the
docProps/core.xml dates and every zip entry's header. Both are pinned here.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

FIXED_TIMESTAMP = datetime(2025, 1, 15, 0, 0, 0)
"""The created/modified date written into every built document's core properties."""

_ZIP_DATE_TIME = (2025, 1, 1, 0, 0, 0)
# Regular file, rw-r--r--, written as if on Unix so the header does not depend on the host OS.
_EXTERNAL_ATTR = 0o100644 << 16
_UNIX = 3
_COMPRESS_LEVEL = 6
_CORE_PART = "docProps/core.xml"
# openpyxl overwrites `modified` with now() inside save(), after any value we set, so the
# dates are pinned on the serialised XML as well.
_CORE_DATE = re.compile(rb"(<dcterms:(?:created|modified)\b[^>]*>)[^<]*(</dcterms:(?:created|modified)>)")


def normalize_package(path: Path) -> None:
    """Rewrite an OOXML zip in place with fixed dates, order, compression and attributes."""
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for name, data in entries:
            if name == _CORE_PART:
                data = _pin_core_dates(data)
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = _UNIX
            info.external_attr = _EXTERNAL_ATTR
            target.writestr(info, data, compresslevel=_COMPRESS_LEVEL)
    path.write_bytes(buffer.getvalue())


def _pin_core_dates(xml: bytes) -> bytes:
    """Replace the created/modified values of core.xml by the fixed timestamp."""
    stamp = FIXED_TIMESTAMP.strftime("%Y-%m-%dT%H:%M:%SZ").encode("ascii")
    return _CORE_DATE.sub(lambda match: match.group(1) + stamp + match.group(2), xml)
