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
                           r"(?:の|は|が|では|における|的|是|于|在|[(（]|'s\b|’s\b|,|\sis\b|\sreported\b"
                           r"|\stoday\b|\s\()")
# A cover line stating the company's name ("公司名称：…", "Company name: …"), its legal name before its short one.
_COVER_LINE = re.compile(r"^\s*(?:公司名称|公司全称|公司中文名称|会社名|商号|Company name|Name of (?:the )?company)"
                         r"\s*[:：]\s*(?P<name>[^\n,;，；。]{2,60})", re.IGNORECASE | re.MULTILINE)
_SHORT_NAME_LINE = re.compile(r"^\s*(?:股票简称|证券简称)\s*[:：]\s*(?P<name>[^\s,;，；。]{2,30})", re.MULTILINE)
# How many of a document's first text blocks are its cover: where it states its company.
_COVER_BLOCKS = 6
# A title naming the kind of document rather than its company ("Annual report", "決算短信").
_DOCUMENT_WORDS = re.compile(
    r"report|statement|review|excerpt|summary|results|minutes|policy|filing|presentation|release|overview"
    r"|報告|決算|短信|概要|資料|年報|报告|財務|财务|計算書|説明|说明|公告")
# A company's name as documents write it (Kirin Holdings, 株式会社…, …ホールディングス, Acme Inc.).
COMPANY_NAME = re.compile(
    r"[A-Za-z0-9&\u30a0-\u30ff\u4e00-\u9fff・]+(?:ホールディングス|株式会社|グループ|銀行|工業|商事|製薬|電機|集团"
    r"|股份有限公司|有限公司)"  # no hiragana: a particle (は, の) ends the words before a name
    r"|(?:株式会社)[A-Za-z0-9&\u30a0-\u30ff\u4e00-\u9fff]+"
    r"|(?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&.-]*,?\s+(?:Inc\.?|Corp\.?|Corporation|Co\.,?\s+Ltd\.?|Ltd\.?|Limited|plc|PLC|Holdings|AG"
    r"|S\.A\.|N\.V\.|SE|GmbH)(?![\w])")
# A title leading with the company's name, then what the document is: "Kaede Optics Co., Ltd. - Summary of results".
_TITLE_SEPARATOR = re.compile(r"\s*(?:[-–—:：|｜]|\s)\s*")


def stated_company(doc: ParsedDocument) -> str:
    """The name of the company ``doc`` says it is about, or "" when it states none."""
    found = document_context(doc, filename=doc.doc_id, given=doc.metadata).company
    return found or _title_company(doc)


def _title_company(doc: ParsedDocument) -> str:
    """The company a document's title or first lines name: another company's report never reads as the home's."""
    title = unicodedata.normalize("NFKC", doc.title or "").strip().lstrip("#").strip()
    texts = [unicodedata.normalize("NFKC", b.text).strip() for b in doc.blocks[:_COVER_BLOCKS * 2]
             if b.kind in (BlockKind.PARAGRAPH, BlockKind.NOTE) and b.text.strip()][:_COVER_BLOCKS]
    first = texts[0] if texts else ""
    return _named_by_title(title, first) or _cover_name(texts) or _opening_subject(first)


def _named_by_title(title: str, first: str) -> str:
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
    # "Tarn Microdevices: fiscal 2025 at a glance" over "Tarn Microdevices reported…": the part before
    # the separator is the subject the first sentence takes up
    head = re.split(r"\s*[:：|｜–—]\s*|\s+-\s+", title, maxsplit=1)[0].strip()
    if head != title and head and not _DOCUMENT_WORDS.search(head.lower()) and _takes_up(first, head):
        return head
    if _DOCUMENT_WORDS.search(title.lower()):
        return ""
    return title if _takes_up(first, title) else ""


def _takes_up(first: str, name: str) -> bool:
    """Whether the sentence ``first`` writes ``name`` as its subject (a word of its own, a particle after it)."""
    at = first.find(name)
    before = first[at - 1] if at > 0 else " "
    own_word = not (before.isascii() and before.isalnum())
    return at >= 0 and own_word and _SUBJECT_TAIL.match(first, at + len(name)) is not None


def _cover_name(texts: list[str]) -> str:
    """The name a cover line states ("公司名称：青岚科技股份有限公司"), the legal name before the short one."""
    for pattern in (_COVER_LINE, _SHORT_NAME_LINE):
        found = next((m.group("name").strip() for t in texts for m in [pattern.search(t)] if m), "")
        if found:
            return found
    return ""


def _opening_subject(first: str) -> str:
    """A company's legal name opening the first sentence as its subject ("Sorrel Systems, Inc. is a maker…")."""
    lead = COMPANY_NAME.match(first)
    if lead is None or _SUBJECT_TAIL.match(first, lead.end()) is None:
        return ""
    return lead.group().strip()
