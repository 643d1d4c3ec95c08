"""Workbooks far larger than a statement, built from a real openpyxl workbook with its sheet rewritten as raw XML."""

from __future__ import annotations

import io
import random
import zipfile

SHEET = "xl/worksheets/sheet1.xml"


def many_rows_xlsx(rows: int, *, seed: int = 7) -> bytes:
    """A valid .xlsx whose one sheet holds ``rows`` rows of two varied numbers.

    The numbers vary so the sheet deflates only about 5:1, like real figures: the package stays within
    the archive guard's ratio and size limits, and only the parse itself meets the workbook's size.
    """
    import openpyxl

    plain = io.BytesIO()
    workbook = openpyxl.Workbook()
    workbook.active.title = "Data"
    workbook.save(plain)
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    head = source.read(SHEET).split(b"<sheetData", 1)[0]
    numbers = random.Random(seed)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for info in source.infolist():
            if info.filename != SHEET:
                package.writestr(info.filename, source.read(info))
        with package.open(SHEET, "w") as sheet:
            sheet.write(head + b"<sheetData>")
            for row in range(1, rows + 1):
                sheet.write(b'<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>%d</v></c></row>'
                            % (row, row, numbers.randrange(10**6), row, numbers.randrange(10**6)))
            sheet.write(b"</sheetData></worksheet>")
    return out.getvalue()
