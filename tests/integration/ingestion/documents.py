"""Small synthetic documents for parser tests, written with the same libraries that read them."""

from __future__ import annotations

import datetime as dt
import io
import zipfile


def pdf_pages(*pages: str, user_password: str | None = None, owner_password: str | None = None) -> bytes:
    """A PDF with one line of Helvetica text per page, optionally RC4-encrypted (no crypto backend needed)."""
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, DictionaryObject, NameObject

    writer = PdfWriter()
    for text in pages:
        page = writer.add_blank_page(width=612, height=792)
        font = DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        })
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        if text:
            content = ContentStream(None, None)
            content.set_data(b"BT /F1 12 Tf 72 720 Td (" + text.encode("latin-1") + b") Tj ET")
            page.replace_contents(content)
    if user_password is not None:
        writer.encrypt(user_password=user_password, owner_password=owner_password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def merged_workbook() -> bytes:
    """A sheet with a merged title, a header merged over two columns, a spacer row and column, a % cell."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "P&L"
    sheet["A1"] = "Revenue by region (USD m)"
    sheet.merge_cells("A1:E1")
    sheet["A3"], sheet["B3"], sheet["D3"], sheet["E3"] = "Region", "FY2024", "FY2025", "Margin"
    sheet.merge_cells("B3:C3")
    sheet["A5"], sheet["B5"], sheet["C5"], sheet["D5"], sheet["E5"] = "North", 10, 12.5, 25, 0.41
    sheet["E5"].number_format = "0%"
    sheet["G5"] = dt.date(2025, 1, 31)
    sheet["A6"], sheet["B6"] = "South", 8
    sheet["C6"] = "=B5*2"  # a formula never calculated by Excel has no cached value
    second = workbook.create_sheet("Empty")
    second["C3"] = None
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def sample_docx() -> bytes:
    """Headings on two levels, a list, a caption line and a table with merged cells."""
    import docx

    document = docx.Document()
    document.add_paragraph("Preface before any heading.")
    document.add_heading("Results", level=1)
    document.add_paragraph("Revenue grew.")
    document.add_heading("By region", level=2)
    document.add_paragraph("North led", style="List Bullet")
    document.add_paragraph("Table 1: Revenue (USD m)")
    table = document.add_table(rows=3, cols=3)
    for row, values in enumerate([["Region", "FY2024", ""], ["North", "10", "12"], ["South", "8", "9"]]):
        for col, value in enumerate(values):
            table.cell(row, col).text = value
    table.cell(0, 1).merge(table.cell(0, 2))
    document.add_heading("Outlook", level=1)
    document.add_paragraph("Stable.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def sample_pptx() -> bytes:
    """One slide with a title, a grouped text box, a table with a merged header and speaker notes."""
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])  # "Title Only"
    slide.shapes.title.text = "Key figures"
    group = slide.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(1)).text_frame.text = "Unit: USD_M"
    table = slide.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for row, values in enumerate([["Metric", "FY", ""], ["", "2023", "2024"], ["REVENUE", "1180", "1320"]]):
        for col, value in enumerate(values):
            table.cell(row, col).text = value
    table.cell(0, 1).merge(table.cell(0, 2))
    slide.notes_slide.notes_text_frame.text = "Say the number slowly."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def zip_bomb(member_bytes: int) -> bytes:
    """A tiny zip whose single member inflates to ``member_bytes`` zeros."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * member_bytes)
    return out.getvalue()


# A line of a laid-out PDF page: x, y (PDF points from the bottom-left), font size, bold, text.
PdfLine = tuple[float, float, float, bool, str]


def pdf_layout(*pages: list[PdfLine], font_scale: float = 1.0) -> bytes:
    """A PDF whose pages hold the given lines at their positions, in Helvetica or Helvetica-Bold.

    ``font_scale`` below 1 selects each font at ``size / font_scale`` and scales it down by the
    text matrix, as many filings are written (a font at 416 shown at 8.75 points): the page
    looks the same, only the font size PDFium reports differs.
    """
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, DictionaryObject, NameObject

    def font(name: str) -> DictionaryObject:
        return DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject(name)})

    writer = PdfWriter()
    for lines in pages:
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({
            NameObject("/F1"): font("/Helvetica"), NameObject("/F2"): font("/Helvetica-Bold")})})
        ops = []
        for x, y, size, bold, text in lines:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            place = f"{x} {y} Td" if font_scale == 1 else f"{font_scale} 0 0 {font_scale} {x} {y} Tm"
            ops.append(f"BT /{'F2' if bold else 'F1'} {size / font_scale} Tf {place} ({escaped}) Tj ET")
        content = ContentStream(None, None)
        content.set_data("\n".join(ops).encode("latin-1"))
        page.replace_contents(content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
