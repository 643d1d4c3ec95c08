"""Build the two annual review decks (ACME_FY2024_Review.pptx, ACME_FY2025_Review.pptx)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pptx
from pptx.enum.text import PP_ALIGN
from pptx.util import Inches, Pt

from ragspine.samples import _layout
from ragspine.samples._ooxml import FIXED_TIMESTAMP, normalize_package
from ragspine.samples._texts import FISCAL_YEAR_SENTENCE, HIGHLIGHTS, UNIT_SENTENCE
from ragspine.samples.acme_figures import ENTITIES, METRICS, Entity, annual_row, channel_label, channel_rows

if TYPE_CHECKING:
    from pathlib import Path

    from pptx.presentation import Presentation
    from pptx.slide import Slide

# Indices of the layouts of python-pptx's built-in default template.
_TITLE_LAYOUT = 0
_TITLE_AND_CONTENT_LAYOUT = 1
_TITLE_ONLY_LAYOUT = 5
_CAPTION = "Unit: USD_M; GROSS_MARGIN in %; STORE_COUNT in stores"


def build_review_deck(path: Path, fiscal_year: str) -> None:
    """Write the review deck of ``fiscal_year`` ("2024" or "2025") to ``path``."""
    deck = pptx.Presentation()
    _set_properties(deck, fiscal_year)
    _add_title_slide(deck, fiscal_year)
    for item in ENTITIES:
        _add_entity_slide(deck, item, fiscal_year)
    _add_channel_slide(deck, fiscal_year)
    _add_highlights_slide(deck, fiscal_year)
    deck.save(str(path))
    normalize_package(path)


def _set_properties(deck: Presentation, fiscal_year: str) -> None:
    """Fill the core properties with fixed values (no clock, no user name)."""
    props = deck.core_properties
    props.title = f"ACME Group FY{fiscal_year} Review"
    props.author = "ACME sample corpus"
    props.last_modified_by = "ACME sample corpus"
    props.revision = 1
    props.created = FIXED_TIMESTAMP
    props.modified = FIXED_TIMESTAMP


def _add_title_slide(deck: Presentation, fiscal_year: str) -> None:
    """Add slide 1: the title and the reporting conventions quoted by faq.yaml."""
    slide = deck.slides.add_slide(deck.slide_layouts[_TITLE_LAYOUT])
    _set_title(slide, f"ACME Group FY{fiscal_year} Review")
    subtitle = slide.placeholders[1].text_frame
    subtitle.text = FISCAL_YEAR_SENTENCE
    subtitle.add_paragraph().text = UNIT_SENTENCE


def _add_entity_slide(deck: Presentation, item: Entity, fiscal_year: str) -> None:
    """Add the key-figure slide of one entity: a caption and exactly one table."""
    slide = _titled_slide(deck, f"{item.code} · {item.name_zh} — key figures")
    _add_caption(slide, _CAPTION)
    header = [_layout.METRIC_HEADER, *(f"FY{year}" for year in _layout.deck_columns(fiscal_year))]
    rows = [
        [
            _layout.metric_row_label(metric, fiscal_year),
            *(annual_row(item.code, metric.code).value(y) for y in _layout.deck_columns(fiscal_year)),
        ]
        for metric in METRICS
    ]
    _add_table(slide, [header, *rows])


def _add_channel_slide(deck: Presentation, fiscal_year: str) -> None:
    """Add slide 6: revenue of each entity split into ONLINE and OFFLINE."""
    slide = _titled_slide(deck, "Revenue by channel (USD_M)")
    years = _layout.deck_columns(fiscal_year)
    header = [_layout.CHANNEL_HEADER, *(f"FY{year}" for year in years)]
    rows = [[channel_label(row), *(row.value(year) for year in years)] for row in channel_rows()]
    _add_table(slide, [header, *rows])


def _add_highlights_slide(deck: Presentation, fiscal_year: str) -> None:
    """Add slide 7: three bullet highlights."""
    slide = deck.slides.add_slide(deck.slide_layouts[_TITLE_AND_CONTENT_LAYOUT])
    _set_title(slide, "Highlights")
    body = slide.placeholders[1].text_frame
    first, *others = HIGHLIGHTS[fiscal_year]
    body.text = first
    for bullet in others:
        body.add_paragraph().text = bullet


def _titled_slide(deck: Presentation, title: str) -> Slide:
    """Add a title-only slide."""
    slide: Slide = deck.slides.add_slide(deck.slide_layouts[_TITLE_ONLY_LAYOUT])
    _set_title(slide, title)
    return slide


def _set_title(slide: Slide, title: str) -> None:
    """Write the title placeholder of a slide."""
    shape = slide.shapes.title
    if shape is None:  # every layout used here has a title; fail loudly if that changes
        raise ValueError("slide layout has no title placeholder")
    shape.text_frame.text = title


def _add_caption(slide: Slide, text: str) -> None:
    """Add the unit caption as a plain text box under the title."""
    box = slide.shapes.add_textbox(Inches(0.5), Inches(1.55), Inches(9), Inches(0.4))
    box.text_frame.text = text
    box.text_frame.paragraphs[0].runs[0].font.size = Pt(14)


def _add_table(slide: Slide, cells: list[list[str]]) -> None:
    """Add one table whose cells hold the given strings, numbers right-aligned."""
    n_rows, n_cols = len(cells), len(cells[0])
    frame = slide.shapes.add_table(n_rows, n_cols, Inches(0.5), Inches(2.05), Inches(9), Inches(0.4 * n_rows))
    table = frame.table
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            cell = table.cell(r, c)
            cell.text = text
            paragraph = cell.text_frame.paragraphs[0]
            paragraph.runs[0].font.size = Pt(14)
            if c > 0:
                paragraph.alignment = PP_ALIGN.RIGHT
