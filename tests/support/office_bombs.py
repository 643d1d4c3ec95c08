"""Office packages that inflate far past their size (zip bombs), built from a real document of the library."""

from __future__ import annotations

import io
import zipfile


def docx_bomb(inflated_bytes: int = 20 * 1024 * 1024) -> bytes:
    """A valid .docx whose document.xml is ``inflated_bytes`` of tiny paragraphs, deflated to a few tens of KB."""
    import docx

    document = docx.Document()
    document.add_paragraph("cover")
    plain = io.BytesIO()
    document.save(plain)
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    xml = source.read("word/document.xml")
    head, rest = xml.split(b"<w:body>", 1)
    paragraph = b"<w:p><w:r><w:t>a</w:t></w:r></w:p>"
    body = head + b"<w:body>" + paragraph * (inflated_bytes // len(paragraph)) + rest
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bomb:
        for info in source.infolist():
            bomb.writestr(info.filename, body if info.filename == "word/document.xml" else source.read(info))
    return out.getvalue()
