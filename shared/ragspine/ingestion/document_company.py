"""The company a document states it is about: its metadata, its cover, or a title its first lines take up.

A title alone ("Annual report excerpt", "有価証券報告書") names no company; a title the first
paragraph takes up as a subject does (``# エーザイ`` over "エーザイ(IFRS適用)の2024年3月期
における…" or "以下は日本航空の…", ``# Acme`` over "Acme's revenue…"), unless it names a kind of
document, and so does a title written as a company's name (``Kirin Holdings Inc.``,
``キリンホールディングス株式会社``).
"""

from __future__ import annotations

import re
import unicodedata

from ragspine.ingestion.document_context import document_context
from ragspine.ingestion.model import BlockKind, ParsedDocument

MAX_NAME_CHARS = 60
# What follows a subject at the start of a sentence: a particle, a possessive, a bracketed note.
_SUBJECT_TAIL = re.compile(r"\s*(?:[(（][^)）]{0,30}[)）])?\s*"
                           r"(?:の|は|が|では|における|'s\b|’s\b|,|\sis\b|\sreported\b|\s\()")
# What follows a company opening a sentence about it: a bracketed note, then a verb ("is a US maker", "(fiscal
# year ending September 30) today reported", "'s revenue").
_OPENING_VERB = re.compile(r"\s*(?:[(（][^)）]{0,80}[)）])?\s*(?:'s\b|’s\b|(?:today\s+|also\s+)?"
                           r"(?:is|was|reported|reports|announced|announces|has|had|posted|posts|designs|makes"
                           r"|manufactures|develops|sells)\b)")
# A title naming the kind of document rather than its company ("Annual report", "決算短信").
_DOCUMENT_WORDS = re.compile(
    r"report|statement|review|excerpt|summary|results|minutes|policy|filing|presentation|release|overview"
    r"|報告|決算|短信|概要|資料|年報|报告|財務|财务|計算書|説明|说明|公告")
# A company's name as documents write it (Kirin Holdings, 株式会社…, …ホールディングス, Acme Inc.).
COMPANY_NAME = re.compile(
    r"[A-Za-z0-9&\u30a0-\u30ff\u4e00-\u9fff・]+(?:ホールディングス|株式会社|グループ|銀行|工業|商事|製薬|電機|集团"
    r"|股份有限公司|有限公司)"  # no hiragana: a particle (は, の) ends the words before a name
    r"|(?:株式会社)[A-Za-z0-9&\u30a0-\u30ff\u4e00-\u9fff]+"
    r"|(?:[A-Z][\w&.-]*,?\s+){1,4}(?:Inc\.?|Corp\.?|Corporation|Co\.,?\s+Ltd\.?|Ltd\.?|Limited|plc|PLC|Holdings|AG"
    r"|S\.A\.|N\.V\.|SE|GmbH)(?![\w])")
# A title leading with the company's name, then what the document is: "Kaede Optics Co., Ltd. - Summary of results".
_TITLE_SEPARATOR = re.compile(r"\s*(?:[-–—:：|｜]|\s)\s*")


def stated_company(doc: ParsedDocument) -> str:
    """The name of the company ``doc`` says it is about, or "" when it states none."""
    found = document_context(doc, filename=doc.doc_id, given=doc.metadata).company
    return found or _title_company(doc)


def _title_company(doc: ParsedDocument) -> str:
    title = unicodedata.normalize("NFKC", doc.title or "").strip().lstrip("#").strip()
    if not title or len(title) > MAX_NAME_CHARS or not re.search(r"[^\W\d_]", title):
        return ""
    if COMPANY_NAME.fullmatch(title):
        return title
    lead = COMPANY_NAME.match(title)
    if lead is not None:
        rest = title[lead.end():]
        separator = _TITLE_SEPARATOR.match(rest)
        if separator is not None and separator.group().strip() and _DOCUMENT_WORDS.search(rest.lower()):
            return lead.group().strip()  # the company's name, then the kind of document it heads
    first = next((b.text for b in doc.blocks if b.kind in (BlockKind.PARAGRAPH, BlockKind.NOTE) and b.text.strip()),
                 "")
    first = unicodedata.normalize("NFKC", first).strip()
    if _DOCUMENT_WORDS.search(title.lower()):
        # "# Annual Report 2024" over "Corvane Systems, Inc. is a US maker of …", a press release's "Northlake
        # Sensors, Inc. (fiscal year ending September 30) today reported …": a company's name, its legal form
        # written, opening the first sentence is its subject (a Latin name: a Chinese or Japanese name with its
        # legal form is often the home company's own, which the glossary may list without it)
        opening = COMPANY_NAME.match(first)
        if opening is None or not opening.group().isascii() or not _OPENING_VERB.match(first, opening.end()):
            return ""  # "GreenSky, Inc. NOTES TO CONSOLIDATED …": a filing's running head, not a sentence about it
        return opening.group().strip().rstrip(",")
    at = first.find(title)
    before = first[at - 1] if at > 0 else " "
    if at >= 0 and not (before.isascii() and before.isalnum()) and _SUBJECT_TAIL.match(first, at + len(title)):
        return title
    # "# Tallis Microsystems: fiscal 2024 at a glance" over "Tallis Microsystems reported …": the title's lead
    # before its separator, taken up as the first sentence's subject
    lead_words = re.split(r"\s*[:：|｜–—]\s*|\s+-\s+", title, maxsplit=1)[0].strip()
    if (lead_words != title and re.search(r"[^\W\d_]", lead_words) and first.startswith(lead_words)
            and _SUBJECT_TAIL.match(first, len(lead_words))):
        return lead_words
    return ""
