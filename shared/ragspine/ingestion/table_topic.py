"""What a table's figures are, as the text right around it names them: the subject of its grand total.

A bare ``Total`` closing a table of line items with no section heading totals what the table
lists. The filing says what that is in the sentence leading into the table ("Personnel expenses
for employees were as follows:", "The following table summarizes warrants outstanding (in
thousands):", 人件費の内訳は次のとおりです), in its caption or in the heading just over it
("10. Accrued Liabilities", "Revenue by geography"), or in that same sentence set after it where
the text was cut from the page apart from its tables (a PDF's text flow, an extract that lists a
table's paragraphs after it): a sentence pointing forward with no table after it can only lead the
table before it. Only a short noun phrase is read; a heading
naming a statement, a report or a part of a filing ("Annual report excerpt", "Notes to
consolidated financial statements") names no figure, and then the table has no subject ("").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.ingestion.table_subject import other_company, unit_note
from ragspine.numbers.units import units_in
from ragspine.text import CJK

# "X were as follows", "X consisted of the following", "A summary of X is as follows".
_AS_FOLLOWS = re.compile(
    r"(?i)(?:^|[.;:]\s+)(?P<s>[A-Za-z][^.;:]{1,120}?)\s+(?:was|were|is|are|consist(?:s|ed)?|comprise[sd]?)"
    r"\s+(?:(?:summari[sz]ed|presented|shown|set\s+forth|detailed)\s+)?(?:of\s+)?(?:as\s+follows|the\s+following)\b"
    # "The components of earnings before income taxes were:" ends the sentence leading into the table
    r"|(?:^|[.;:]\s+)(?P<t>[A-Za-z][^.;:]{1,120}?)\s+(?:was|were|are|consist(?:s|ed)?\s+of)\s*[:：]\s*$")
# "The following table summarizes X", "The following is a summary of X".
_FOLLOWING = re.compile(
    r"(?i)\bthe\s+following\s+(?:table\s+|schedule\s+)?(?:is\s+a\s+(?:summary|reconciliation|breakdown)\s+of|summari[sz]es"
    r"|presents|shows|sets\s+forth|provides|details|lists)\s+(?P<s>[A-Za-z][^.;:]{1,120})")
# "Operating income included the following:": the rows are amounts a figure includes, never that figure itself, so
# what they total is named "included in operating income" (``_included_in``).
_INCLUDES_FOLLOWING = re.compile(
    r"(?i)(?:^|[.;:]\s+)(?P<s>[A-Za-z][^.;:]{1,120}?)\s+(?:included|includes|include)\s+the\s+following\b")
# 人件費の内訳は次のとおりです / 人员费用明细如下
_CJK_LEAD = re.compile(r"(?P<s>[^、。，,：:\s]{2,20}?)(?:の内訳|の明細|の推移|明细|构成|情况)?(?:は|、)*"
                       r"(?:次|以下)の(?:とおり|通り)|(?P<z>[^、。，,：:\s]{2,20}?)(?:明细|构成|情况)?如下")
_CJK_HEADING_TAIL = re.compile(r"(?:の内訳|の明細|の推移|内訳|明細|明细|构成|情况)$")
_CJK = re.compile(f"[{CJK}]")
# A sentence, never a name: its punctuation, a copula or a verb ending (人件費の内訳は次のとおりです。).
_CJK_SENTENCE = re.compile(r"[。、，！？]|です|ます|である|次の|以下|如下|[はをが](?!\Z)")
# Where the phrase stops naming the figures: the dates, periods and circumstances that follow them.
_QUALIFYING = (r"\(|\bfor\b|\bat\b|\bas\s+(?:of|at)\b|\bduring\b|\bin\s+connection\b|\bin\s+(?:fiscal|the|each|our)\b"
               r"|\bon\s+(?:a|an|the)\b|\bbased\s+on\b|\bover\b|\bended\b|\bthat\b|\bwhich\b|\bwere\b|\bwas\b|\brespectively\b")
_QUALIFIER = re.compile(rf"(?i)\s*(?:,|{_QUALIFYING}).*$")
# "compensation expense included in selling, general and administrative expenses": the figures are the part of
# another figure the words after "included in" name, whose name may hold a list's commas; the dates and
# circumstances after it still end it
_INCLUDED_IN = re.compile(r"(?i)\s+included\s+(?:in|within)\s+")
_WHERE_ENDS = re.compile(rf"(?i)\s*(?:{_QUALIFYING}|\brelated\s+to\b).*$")
# Where figures are included that names no figure: a statement, the balance sheet ("included in our consolidated
# balance sheets"); its figures are the table's whole
_A_STATEMENT = re.compile(r"(?i)(?:(?:the|our)\s+)?(?:consolidated\s+)?(?:(?:condensed\s+)?statements?\s+of\s+[a-z ,]+"
                          r"|balance\s+sheets?|income\s+statements?|financial\s+statements)")
# A list cut at its first comma ("tangible assets acquired, liabilities assumed and goodwill"): the words before it
# name one item of several, never what the whole table lists.
_LIST_GOES_ON = re.compile(r"(?i)^\s*,[^()]*?\b(?:and|or)\b")
_LEADING = re.compile(r"(?i)^(?:(?:the|our|a|an|its|these|this|such|(?:a\s+)?(?:summary|breakdown|disaggregation"
                      r"|reconciliation|details?|components?|composition)\s+of)\s+)+")
_NUMBERING = re.compile(r"(?i)^\s*(?:(?:note|table|item)\s+)?(?:\d+|[ivx]+|[a-z])(?:\.\d+)*\s*[.:)\-–—]?\s+")
# Headings that name a document, a statement or a part of one, never the figures of one table.
_NOT_FIGURES = re.compile(
    r"(?i)\b(?:report|excerpt|statements?|notes?|item|part|discussion|analysis|overview|continued|page|schedule"
    r"|sheets?|management|appendix|exhibit|section|selected|supplementary|quarterly|annual|results|liquidity|table"
    r"|following|information|data|we|us|they|it|this|these|those|follows?|below|above|(?<!carrying\s)amounts?|figures?|activity"
    r"|changes?|items?|other|certain|various)\b|決算|報告|注記|附注|报告")
_PERIOD_WORDS = re.compile(r"(?i)\d|\b(?:year|quarter|month|fiscal|period|january|february|march|april|may|june|july"
                           r"|august|september|october|november|december)\b|年|月|期")
_PARENTHESES = re.compile(r"\s*[(（][^()（）]*[)）]")
_WORDS_ONLY = re.compile(r"[A-Za-z][A-Za-z&’'/ -]*")
_WORDS_IN_A_LIST = re.compile(r"[A-Za-z][A-Za-z&’'/ ,-]*")
_MAX_WORDS = 8
_LEADS_INTO = re.compile(r"(?i)\b(?:the\s+following|as\s+follows|(?:table|schedule)\s+below)\b|[:：]\s*$")
# A line that only states the unit and currency of the figures under it: "单位：元 币种：人民币", "(in millions)".
_UNIT_LINE = re.compile(r"\s*(?:(?:(?:金额|金額)?(?:单位|單位|単位|币种|幣種|通貨)\s*[:：]\s*[^\s:：]{1,12}\s*)+"
                        r"|[(（]\s*(?:in|単位|单位)[^()（）]{1,40}[)）])\s*", re.IGNORECASE)
# A note's heading, its subject after the colon: "财务报表附注：财务费用", "Notes to the financial statements: Leases".
_NOTE_TOPIC = re.compile(r"(?:附注|注記|notes?\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements)"
                         r"\s*[:：]\s*(?P<topic>[^:：]{2,60})$", re.IGNORECASE)
_BRACKETED = re.compile(r"[(（][^()（）]{2,80}[)）]")
# A title's words of four letters or more ("Comparison of Year Ended …"): each is capitalised
_LONGER_WORD = re.compile(r"(?<![\w’'])[A-Za-z][A-Za-z’'-]{3,}")
# A full stop ending a sentence inside a line ("… was $5.2 million. Revenue …"), never an abbreviation's ("Inc. Notes")
_SENTENCE_END = re.compile(r"[a-z]{3,}[.!?]\s")
_MAX_TITLE_CHARS = 160
# A bracket a hard-wrapped text breaks over lines ("as follows (in\nthousands):"): one note, read on one line
_BRACKET_OVER_LINES = re.compile(r"[(（][^()（）\n]{0,80}\n[^()（）]{0,80}[)）]")
_CUT_AT_ABBREVIATION = re.compile(r"(?:^|\s)[A-Z]$")
# "U.S.", "U.K.": an abbreviation's points end no sentence, so the words after it are read on
_DOTTED_ABBREVIATION = re.compile(r"\b((?:[A-Z]\.){2,})(?=[\s,])")
# "our U.S. and foreign components of income before income taxes": the parts a table splits a figure into, named
# before "components of", leave the figure itself as what its total is
_SPLIT_INTO_COMPONENTS = re.compile(r"(?i)^(?:[\w’'-]+\s+){1,6}?(?:and\s+[\w’'-]+\s+)?components\s+of\s+")
# "income (loss)", "expense (benefit)": one word in brackets is the figure's other sign, part of its name
_OTHER_SIGN = re.compile(r"(?i)\s*\((?:loss|losses|benefit|expense|income|deficit|gain|gains|charge|credit)\)")
# "Goodwill activity was as follows": a roll-forward of goodwill, whose balances are goodwill; the word after the
# figures' name says how the table lays them out, never another figure
_ACTIVITY = re.compile(r"(?i)(?<=\w)\s+activity$")
# "sales information by geographic area": the figures are sales, split as the words after "by" say; "information"
# or "data" after a word saying only what kind of report it is ("financial information by segment") names none
_INFORMATION_BY = re.compile(r"(?i)^(?!(?:financial|operating|segment|geographic|selected|summary|summarized|other"
                             r"|additional|supplemental|key|certain)\s)(?P<figures>[A-Za-z][\w’'-]*(?:\s+[\w’'-]+){0,3}?)"
                             r"\s+(?:information|data)(?=\s+by\s)")


def table_topic(lead: str, caption: str, headings: Sequence[str]) -> str:
    """The figures a table lists, named by its leading sentence, caption or innermost heading; "" when none does.

    The heading is read only where no text stands between it and the table: a note's heading
    ("Note 6 – Income Taxes") sits over tables of its parts, each led by a sentence of its own.
    """
    for phrase in (_from_lead(lead), _from_lead(caption), _as_title(caption)):
        if phrase:
            return phrase
    if not headings or (lead.strip() and not _UNIT_LINE.fullmatch(lead)) or caption.strip():
        return ""  # a unit line alone ("单位：元 币种：人民币") between the heading and the table says no other topic
    heading = headings[-1]
    note = _NOTE_TOPIC.search(heading)  # "… 财务报表附注：财务费用": the note's own subject after the colon
    if note is not None:
        heading = note.group("topic")
    return _from_lead(heading) or _as_title(heading)  # a slide's title may be the sentence itself


def lead_topic(lead: str, caption: str) -> str:
    """The figures named by the sentence leading into a table ("X were as follows:"), never by a title; else "".

    A title may name the statement a table is part of ("連結貸借対照表") and a heading over its rows one part
    of it; a sentence saying what the table lists names what every row is.
    """
    return _from_lead(lead) or _from_lead(caption)


def topic_after(text: str) -> str:
    """The figures named by the first line of ``text`` that leads into a table ("X were as follows:"), else "".

    ``text`` is what follows a table when no table follows it under the same heading: a line
    pointing forward there names the table before it, displaced. A line naming no figures
    ("The following table summarizes our results") names nothing, and the search stops there.
    """
    return _from_lead(leading_line(text))


def leading_line(text: str) -> str:
    """The first line of ``text`` leading into a table ("… consisted of the following (in thousands):"), else ""."""
    return next((line for line in text.splitlines()
                 if any(p.search(line) for p in (_AS_FOLLOWS, _FOLLOWING, _INCLUDES_FOLLOWING))
                 or _CJK_LEAD.search(line)), "")


def leads_into_table(line: str) -> bool:
    """Whether a line points forward to a table ("the following", "the table below", a closing colon)."""
    return bool(_LEADS_INTO.search(line))


def unit_note_after(text: str) -> str:
    """The unit note of the first line of ``text`` that leads into a table ("… by market (in millions):"), or "".

    Read from the text after a table where no table follows it (see ``topic_after``): such a
    line, pointing forward ("the following", "the table below", a closing colon), leads the table
    before it, so its unit note is that table's. The note ends the line, or stands in brackets
    inside it ("… Economic Return (dollars in millions) for the indicated periods:"); a bracket
    holding a figure ("(2018: $5 million)") is that figure's. A bracket broken over two lines by a
    hard-wrapped text is read as one.
    """
    unwrapped = _BRACKET_OVER_LINES.sub(lambda m: " ".join(m.group().split()), text)
    for line in unwrapped.splitlines():
        if not _LEADS_INTO.search(line):
            continue
        note = unit_note(line) or next((m.group() for m in _BRACKETED.finditer(line)
                                        if not any(ch.isdigit() for ch in m.group()) and units_in(m.group())), "")
        if note:
            return note
    return next((note for line in unwrapped.splitlines() if (note := _title_note(line))), "")


def _title_note(line: str) -> str:
    """The unit note ending a title line ("Comparison of Year Ended December 31, 2019 to 2018 (in 000's)"), else "".

    A title (every longer word capitalised, no sentence in it) closed by a unit note heads the
    figures of its section, the table's among them, wherever the text was set apart from it.
    """
    note = unit_note(line)
    title = line.strip()[:-len(note)].strip() if note and line.strip().endswith(note) else ""
    if not title or len(title) > _MAX_TITLE_CHARS or _SENTENCE_END.search(title):
        return ""
    words = _LONGER_WORD.findall(title)
    return note if words and all(word[0].isupper() for word in words) else ""


def figure_name(text: str) -> str:
    """``text`` as the name of a table's figures, by the rules a leading sentence's subject is read by; "" if none."""
    return _noun_phrase(text)


def _from_lead(lead: str) -> str:
    sentence = _DOTTED_ABBREVIATION.sub(lambda m: m.group(1).replace(".", ""), lead.strip())
    for pattern in (_AS_FOLLOWS, _FOLLOWING):
        matches = list(pattern.finditer(sentence))
        if matches:
            last = matches[-1]
            group = "s" if last.group("s") else "t"
            if _CUT_AT_ABBREVIATION.search(last.group(group)) and sentence[last.end(group):].startswith("."):
                return ""  # "our U.S. and foreign components" cut at "U.": the words read are not the name
            return _noun_phrase(last.group(group))
    includes = list(_INCLUDES_FOLLOWING.finditer(sentence))
    if includes:
        return _included_in_figure(includes[-1].group("s"))
    cjk = list(_CJK_LEAD.finditer(sentence))
    if cjk:
        return _noun_phrase(cjk[-1].group("s") or cjk[-1].group("z") or "")
    return ""


def _as_title(text: str) -> str:
    """A caption or heading that is the figures' name alone ("10. Accrued Liabilities (in thousands)")."""
    title = _NUMBERING.sub("", _PARENTHESES.sub("", text)).strip().rstrip(":：.").strip()
    return "" if _QUALIFIER.search(title) else _noun_phrase(title)


def _included_in(figures: str, where: str) -> str:
    """"X included in Y": X and where it is included, since X may be only the part of itself Y holds ("compensation
    expense included in selling, general and administrative expenses" totals no compensation expense booked
    elsewhere); X alone where Y is a statement or the balance sheet, which holds all of it; "" where Y is no
    short name of figures."""
    head = _noun_phrase(figures)
    where = _WHERE_ENDS.sub("", where).strip(" ,")
    if not head or _A_STATEMENT.fullmatch(where):
        return head
    if (not 1 <= len(where.split()) <= _MAX_WORDS or _NOT_FIGURES.search(where) or _PERIOD_WORDS.search(where)
            or units_in(where) or not _WORDS_IN_A_LIST.fullmatch(where)):
        return ""
    return f"{head} included in {where}"


def _included_in_figure(where: str) -> str:
    """"Y included the following": the rows' figures as parts of Y ("included in operating income"), never Y itself;
    "" where Y is a statement (it holds the whole of each figure, which the rows name) or no short name of figures."""
    where = _WHERE_ENDS.sub("", _LEADING.sub("", where.strip())).strip(" ,")
    if (_A_STATEMENT.fullmatch(where) or not 1 <= len(where.split()) <= _MAX_WORDS or _NOT_FIGURES.search(where)
            or _PERIOD_WORDS.search(where) or units_in(where) or not _WORDS_IN_A_LIST.fullmatch(where)):
        return ""
    return f"included in {where[:1].lower() if where[1:2].islower() else where[:1]}{where[1:]}"


def _noun_phrase(text: str) -> str:
    text = _SPLIT_INTO_COMPONENTS.sub("", _OTHER_SIGN.sub("", text.strip()))
    included = _INCLUDED_IN.search(text)
    if included is not None:
        return _included_in(text[:included.start()], text[included.end():])
    cut = _QUALIFIER.search(text.strip())
    if cut and _LIST_GOES_ON.match(cut.group()):
        return ""
    phrase = _LEADING.sub("", _QUALIFIER.sub("", text.strip())).strip(" -–—:：")
    phrase = _INFORMATION_BY.sub(r"\g<figures>", _ACTIVITY.sub("", phrase))
    if _CJK.search(phrase):
        phrase = _CJK_HEADING_TAIL.sub("", phrase)
        if (not 2 <= len(phrase) <= 20 or _NOT_FIGURES.search(phrase) or _PERIOD_WORDS.search(phrase)
                or _CJK_SENTENCE.search(phrase)):
            return ""
        return phrase
    words = phrase.split()
    if not 1 <= len(words) <= _MAX_WORDS or _NOT_FIGURES.search(phrase) or _PERIOD_WORDS.search(phrase):
        return ""
    if units_in(phrase) or other_company(phrase) or not _WORDS_ONLY.fullmatch(phrase):
        return ""
    return phrase
