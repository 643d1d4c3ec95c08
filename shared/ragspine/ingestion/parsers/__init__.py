"""Format parsers behind one Protocol, and the registry that picks one per file."""

from ragspine.ingestion.parsers.docx import DocxParser
from ragspine.ingestion.parsers.html import HtmlParser
from ragspine.ingestion.parsers.markdown import MarkdownParser
from ragspine.ingestion.parsers.pdf import PdfParser
from ragspine.ingestion.parsers.ports import DocumentParser
from ragspine.ingestion.parsers.pptx import PptxParser
from ragspine.ingestion.parsers.registry import PARSERS, parse_document, parser_for, supported_extensions
from ragspine.ingestion.parsers.text import TextParser
from ragspine.ingestion.parsers.xlsx import XlsxParser

__all__ = [
    "PARSERS",
    "DocumentParser",
    "DocxParser",
    "HtmlParser",
    "MarkdownParser",
    "PdfParser",
    "PptxParser",
    "TextParser",
    "XlsxParser",
    "parse_document",
    "parser_for",
    "supported_extensions",
]
