"""A question naming a document's row label in other words: "the effective tax rate" for "Effective income tax rate".

Open-vocabulary metrics (``label:…``, see ``facts/open_vocabulary.py``) are matched exactly
by the glossary scan: the label as written, without its punctuation, or in the other number.
People name a row loosely: words dropped ("effective tax rate"), added ("net cash *used for*
financing activities" for "Net cash provided by (used in) financing activities"), in another
case or number, with ``&`` for "and". This module reads such a question by word overlap,
and only where one label is clearly meant:

* the words compared are content words: no stop words, no words that only ask for something
  (``what``, ``amount``, ``value``), each in its singular form;
* a label is a candidate when the question holds at least ``MIN_LABEL_SHARE`` of its words
  (of a row read under its section, ``net sales: malaysia``, the words of the row itself: the
  section's words count where the question names them and may go unnamed; the words qualifying a line
  item's head after "from" or "for" may go unnamed too, where no other row holds the head: ``_qualifiers``),
  its words make up at least ``MIN_QUESTION_SHARE`` of the question's, and every other word
  of the question is foreign to the documents' labels (a question word another row uses,
  "*federal* deferred income tax expense" beside a row "Income tax expense", says the
  question is about something this label does not say);
* a question naming "total" and, besides it, only words of one total row's own line item ("the
  Total amount", "the average total costs" beside the row "Total costs incurred") reads that row
  when it is the documents' only total row and no label is a candidate: a total row under a
  section is named by its item's words, never by the section's ("total assets" is not
  "Assets allocated to segments: Total segments");
* the best candidate (most of its words named, then most words in common, then fewest
  words of the question left unexplained, then fewest of its own words left unnamed: "software
  revenue" is ``Revenue: Software``, not ``Cost of revenue: Software``) is taken only when no other candidate ties it:
  two labels matching equally are offered back, never chosen between, unless the numbers the question writes
  tell them apart (words compare no numbers: "a member aged 65" is the one row writing 65 and no other number).

A wrong figure is worse than none, so the shares are strict and only open labels are read
this way (the glossary's own names have their own aliases and the misspelling reader).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.dated_periods import YEAR
from ragspine.qa.near_miss import NearMiss, Reading
from ragspine.qa.share_sections import amounts_unless_shares_asked
from ragspine.qa.total_rows import is_a_total

MIN_LABEL_SHARE = 0.75  # of a label's words the question must name
MIN_QUESTION_SHARE = 0.6  # of the question's words the label must explain
_WORD = LazyPattern(r"[a-z0-9]+(?:'[a-z]+)?")
# "(see Note 16)", "(Note 3)", "(1)": references to the notes, not words of the line item.
_NOTE_REFERENCE = LazyPattern(r"\((?:see\s+)?notes?\s*[\w.]*\)|\(\d+\)")
_PARENTHESES = LazyPattern(r"\([^()]*\)")
_COMPOUND = LazyPattern(r"[a-z0-9]+(?:-[a-z0-9]+)+")
_TOTAL = "total"
# A standard's number run into its name ("IFRS9" for a row's "IFRS 9"): two letters or more, then digits.
_NAME_NUMBER = LazyPattern(r"(?<=[a-z]{2})(?=\d)")
_STOP = frozenset({
    "a", "an", "the", "of", "and", "or", "in", "on", "at", "by", "for", "to", "from", "with", "as", "per", "its",
    "their", "our", "it", "is", "was", "were", "are", "be", "been", "what", "which", "how", "much", "many", "did",
    "does", "do", "has", "have", "had", "that", "this", "these", "those", "there", "than", "s", "'s", "company",
    "companys", "amount", "amounts", "value", "values", "figure", "figures", "year", "years", "fiscal", "fy",
    "during", "ended", "ending", "about", "give", "tell", "me", "show", "respectively", "came", "come", "comes",
})
# Words that ask for arithmetic on a row ("the percentage *change* in", "the *average*"): not words
# the question names the row by, unless the label itself holds them ("Increase in receivables").
ASKING_WORDS = frozenset({"change", "percentage", "percent", "increase", "decrease", "difference", "between", "average",
                     "sum", "ratio", "proportion", "growth", "nominal", "number", "compared"})
# The unit a question asks its answer in ("in terms of $M", "in $ million"): no words of a row
_UNIT_ASKED = LazyPattern(r"(?:(?<![a-z])in\s+(?:terms\s+of\s+)?)?[$€£¥]\s?(?:mn|mm|m|bn|b|k|th)(?![a-z])",
                          re.IGNORECASE)
# A unit note a label carries ("Gross profit (in thousands)") is no word of its line item.
_UNIT_WORDS = frozenset({"thousand", "million", "billion"})
_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                     "sept", "oct", "nov", "dec"})


def _singular(word: str) -> str:
    """``leases`` -> ``lease``, ``activities`` -> ``activity``; short words and ``-ss`` words kept."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") else word


# "ending balance" is the balance at the end, "opening balance" the one at the beginning: a row is written
# either way ("Balance at the end of the fiscal year", "Ending balance"), and "ending" alone is a stop word
# ("the year ending June 30").
_BALANCE_ENDS = {"ending": "end", "closing": "end", "opening": "beginning"}
# A table's columns split by sex are headed "Men | Women" (or "Male | Female"), asked as "a male member".
_SEXES = {"male": "men", "man": "men", "female": "women", "woman": "women"}


def _matching(words: list[str]) -> list[str]:
    """``words`` (lower case) in matching form: singular, an end of a balance named as the other spelling names it,
    "male" and "female" as "men" and "women"."""
    single = [_SEXES.get(word, word) for word in (_singular(word.removesuffix("'s")) for word in words)]
    following = [*single[1:], ""] if single else []
    return [_BALANCE_ENDS.get(word, word) if after == "balance" else word
            for word, after in zip(single, following, strict=True)]


# "ending goodwill", "closing inventory": the item's balance at the period's end, where a roll-forward's rows
# say so ("Goodwill, end of the year"); "the year ending June 30" and "the period ending 2019" name periods.
_ITEM_ENDS = frozenset({"ending", "closing"})
_PERIOD_NOUNS = frozenset({"year", "period", "quarter", "month", "week", "day"})


def _ends_named(words: list[str], words_of: dict[str, set[str]]) -> list[str]:
    """A question's ``words`` with "ending"/"closing" before an item's word read as "end", where a row holds
    "end" and none holds the word itself ("Closing cash"); otherwise as they are ("ending" alone stays a stop
    word)."""
    rows_words = set().union(*words_of.values())
    if "end" not in rows_words:
        return words
    following = [*words[1:], ""]
    before = ["", *words[:-1]]
    return ["end" if word in _ITEM_ENDS - rows_words and before_word not in _PERIOD_NOUNS and _content([after])
            else word for word, after, before_word in zip(words, following, before, strict=True)]


# "the 3 year period", "a two-year period": a span of years the question computes over, no row's "period"
_COUNTS = frozenset({"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"})


def _without_year_spans(words: list[str]) -> list[str]:
    """``words`` less the "period" of a counted span of years ("3 year period")."""
    return [word for at, word in enumerate(words)
            if not (word == "period" and at >= 2 and words[at - 1] == "year"
                    and (words[at - 2].isdigit() or words[at - 2] in _COUNTS))]


def _words(text: str) -> list[str]:
    """The words of a text in matching form: NFKC, lower case, ``&`` as "and", hyphens as spaces, no note
    references, a number run into a name set apart (``ifrs9``: ``ifrs``, ``9``)."""
    norm = unicodedata.normalize("NFKC", text).lower().replace("&", " and ").replace("’", "'")
    norm = _NAME_NUMBER.sub(" ", _NOTE_REFERENCE.sub(" ", norm))
    return _matching(_WORD.findall(norm.replace("-", " ")))


def _content(words: list[str]) -> set[str]:
    """Content words: no stop words, no bare numbers or years, no month names (dates are periods)."""
    return {word for word in words if not (word.isdigit() or word in _MONTHS or word in _STOP or word in _UNIT_WORDS)}


def label_words(text: str) -> set[str]:
    """The content words of a text as labels are compared (``Net sales:`` -> {net, sale})."""
    return _content(_words(text))


def label_words_in_order(text: str) -> list[str]:
    """``label_words`` of a text in the order it writes them, each once: to quote them back as written."""
    words = _words(text)
    content = _content(words)
    return list(dict.fromkeys(word for word in words if word in content))


def label_readings(norm: str, leftover: str, glossary: Glossary, *, total_named: bool = False,
                   written: str = "", years_compared: bool = False) -> list[NearMiss]:
    """The open label the leftover words of a question name, as one reading or several equally good ones.

    ``norm`` is the normalised question and ``leftover`` the same text with every slot mention
    blanked. Returns [] when no label is named clearly enough; one ``NearMiss`` spanning the
    named words otherwise (several readings when labels tie: the caller asks back). ``total_named``:
    the question's word "total" was blanked as the channel, and is a row's word too. ``written``: the
    question as the user wrote it, whose dates tell rows named by their date apart (``norm`` has read them
    as periods: "at 31 December 2019" is FY2019). ``years_compared``: the question names two years or more;
    where it asks how an item changed between them and no row is otherwise named, the row of the item's
    balance at the end of the period answers (``_balance_at_end``).
    """
    labels = [code for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX)]
    if not labels:
        return []
    words_of = {code: _content(_words(label_of(code))) for code in labels}
    asked = _content(_ends_named(_without_year_spans(_words(_UNIT_ASKED.sub(" ", leftover))), words_of))
    if not asked:
        return []
    if total_named:  # "total" read as the channel names a row too where a label holds it ("fair value of total debt")
        asked.add(_TOTAL)
    score = _Scorer(norm, labels, words_of, glossary)
    scored = score(asked)
    named_in = leftover
    if not scored and total_named:
        scored = _the_one_total_row(labels, asked, score.item_words)
        named_in = norm  # its "total" is blanked as the channel in the leftover words
    if not scored and years_compared and _balance_at_end(norm, asked):
        scored = score(asked, at_period_end=True)
    if not scored:
        return _two_rows_named(norm, leftover, words_of, score, total_named=total_named, ties=True, written=written)
    joining = PART_OF_WHOLE if PART_OF_WHOLE.search(leftover) else _TO if _RATIO_OF.search(norm) else None
    if joining is not None:
        # "A as a percentage of the total B", "the ratio of current A to non-current A": a part and its whole,
        # whose words one row may hold between them (the granted shares over the non-vested at the year end,
        # both rows of "non-vested" shares); the two rows, each read by its own side's words, are what is
        # asked, never the one row both sides' words fit
        pair = _two_rows_named(norm, leftover, words_of, score, total_named=total_named, joining=joining,
                               written=written)
        if pair:
            return pair
    reading = _reading(norm, named_in, scored, words_of, asked, written=written)
    return [] if reading is None else [reading]


_Score = tuple[float, int, int, int, int, int]

# A row stating an item's balance at the end of its period: "Goodwill, end of the year", "Contributed equity at
# end of period", "Cash balance at the end of the year".
_AT_PERIOD_END = LazyPattern(r"(?:,|(?<![a-z])at)?\s*(?:the\s+)?(?<![a-z])end\s+of\s+(?:the\s+)?"
                             r"(?:(?:fiscal|financial)\s+)?(?:year|period)(?![a-z])")
# How a question asks an item's move between two years ("the change in goodwill from 2018 to 2019")
_MOVE_ASKED = LazyPattern(r"(?<![a-z])(?:change[sd]?|increase[sd]?|decrease[sd]?|difference|movement)(?![a-z])")
# Words naming a balance's other end, or a flow within the period: then the end-of-period row is no answer
_NOT_THE_END = frozenset({"beginning", "begin", "start", "opening", "addition", "net"})
# The words naming which point of its period a balance is at, and the words a column writes around them
# ("Balance at beginning", "Balance at end of period", "Closing balance")
_BALANCE_POINTS = frozenset({"beginning", "begin", "start", "opening", "end", "closing"})
_BALANCE_DATING = _BALANCE_POINTS | {"balance", "period", "year"}


def _balance_at_end(norm: str, asked: set[str]) -> bool:
    """Whether a question naming no row asks how an item moved between years: the difference of its balances at
    each year's end, which a roll-forward states in its end-of-period row ("the change in goodwill from 2018 to
    2019" is "Goodwill, end of the year" of 2019 less that of 2018). A question naming the opening balance or a
    flow of the period is no such ask."""
    return bool(_MOVE_ASKED.search(norm)) and not asked & _NOT_THE_END


class _Scorer:
    """Scores each open label as the row a set of question words names (see the module's rules)."""

    def __init__(self, norm: str, labels: list[str], words_of: dict[str, set[str]], glossary: Glossary) -> None:
        self.words_of = words_of
        self.compounds = _compounds(norm)
        # the words a question must name of each row: its item's, less a remark in parentheses ("Free cash flow
        # (non-U.S. GAAP measure)", "(in thousands)") and the dating of its figure, which a question may name but
        # seldom does
        self.item_words = {code: _content(_words(_without_dating(_without_remarks(_item(label_of(code))))))
                           or _content(_words(_item(label_of(code)))) or words_of[code] for code in labels}
        self.qualifiers = _qualifiers(labels, words_of, self.item_words)
        # the glossary's own line items are rows too: "non-current" of its "Derivative financial instruments,
        # non-current liability" says a question is not about an open label lacking it
        self.vocabulary = set().union(*words_of.values(), *(
            _content(_words(alias)) for alias, (kind, code) in glossary.aliases.items()
            if kind is SlotKind.METRIC and not code.startswith(METRIC_PREFIX)))
        self.wholes = _wholes_of_columns(labels)
        # the rows of an item's balance at the end of the period, by the item's words without that dating
        self.balances_at_end = {code: words for code in labels if _AT_PERIOD_END.search(item := _item(label_of(code)))
                                and (words := _content(_words(_AT_PERIOD_END.sub(" ", _without_remarks(item)))))}

    def __call__(self, asked: set[str], *, at_period_end: bool = False) -> list[tuple[_Score, str]]:
        """The labels ``asked`` names, scored; ``at_period_end``: only the rows of a balance at the period's end,
        each named by its item's words alone."""
        scored: list[tuple[_Score, str]] = []
        for code, own in self.words_of.items():
            if at_period_end and code not in self.balances_at_end:
                continue
            if code in self.wholes:  # "the total notes payable": the row's own figure beside its columns' parts
                own = own | {_TOTAL}
            named = asked - (ASKING_WORDS - own)  # the words naming a row, not those asking for arithmetic on it
            common = own & named
            if not common:
                continue
            item = self.balances_at_end[code] if at_period_end else self.item_words[code]
            label_share = len(item & named) / len(item)
            question_share = len(common) / len(named)
            if label_share < MIN_LABEL_SHARE or question_share < MIN_QUESTION_SHARE:
                continue
            if (named - own) & self.vocabulary:  # the question names another row's word this label lacks
                continue
            # fewest of its own words unnamed tells rows apart only where the question names some of the
            # section's words: rows of two sections named by their common item alone are both offered
            section_named = bool((own - item) & named)
            # a row named by its head alone gives way to one named whole: "warranty reserve" is that row, not
            # "Warranty reserve from acquisitions"; last, the question's hyphenated words the label holds as
            # written: "non-USD denominated current assets" is the row "Non-USD denominated: assets, current",
            # not "USD denominated: assets, non-current"
            qualifier_unnamed = len(self.qualifiers.get(code, set()) - named)
            # a question naming no point of a balance ("beginning", "end") tells no balance column from another
            # by how few words its dating takes: "Balance at beginning" is no closer than "Balance at end of period"
            unnamed = own - named if named & _BALANCE_POINTS else own - named - _BALANCE_DATING
            scored.append(((label_share, len(common), -len(named - common), -qualifier_unnamed,
                            -len(unnamed) if section_named else 0,
                            len(self.compounds & _compounds(label_of(code)))), code))
        return scored



def _wholes_of_columns(labels: list[str]) -> set[str]:
    """The rows the documents also state qualified by a column (``notes payable`` beside ``less than 1 year: notes
    payable``): the unqualified row is the figure of the columns' whole (a schedule's or a breakdown's ``Total``
    column, see ``ingestion/table_facts.py``), so "the total notes payable" names it."""
    qualified = {rest for label in map(label_of, labels) for rest in _after_qualifiers(label)}
    return {code for code in labels if label_of(code) in qualified}


def _after_qualifiers(label: str) -> list[str]:
    """What follows each qualifier of a label (``a: b: c`` -> ``b: c``, ``c``), a remark's colon no qualifier's."""
    rests, depth = [], 0
    for at, char in enumerate(label):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and label.startswith(": ", at):
            rests.append(label[at + 2:])
    return rests


# Where a line item's head ends and the words qualifying it begin: "Indemnification receivable | from SSL for
# pre-closing taxes (see Note 13)".
_QUALIFIER_START = LazyPattern(r"\s(?:from|for)\s")


def _qualifiers(labels: list[str], words_of: dict[str, set[str]],
                item_words: dict[str, set[str]]) -> dict[str, set[str]]:
    """The words qualifying each row's head that a question may leave unnamed; ``item_words`` narrowed to the head.

    "The indemnification receivable" names the row "Indemnification receivable from SSL for
    pre-closing taxes": its head (two content words or more) is named whole, and no other row
    holds every word of it, so the qualifier need not be named. A head another row holds too
    ("Deferred tax assets from acquisitions" beside "Net deferred tax assets") keeps the whole
    item to be named: the question may ask the other row.
    """
    qualifiers: dict[str, set[str]] = {}
    for code in labels:
        item = _without_dating(_without_remarks(_item(label_of(code))))
        split = _QUALIFIER_START.search(item)
        if split is None:
            continue
        head = _content(_words(item[:split.start()]))
        qualifier = _content(_words(item[split.end():])) - head
        if len(head) < 2 or not qualifier or head != item_words[code] - qualifier:
            continue
        if any(head <= words for other, words in words_of.items() if other != code):
            continue
        item_words[code] = head
        qualifiers[code] = qualifier
    return qualifiers


def _reading(norm: str, named_in: str, scored: list[tuple[_Score, str]], words_of: dict[str, set[str]],
             asked: set[str], *, as_written: bool = False, written: str = "") -> NearMiss | None:
    """The best-scored labels as one reading over the words naming them in ``named_in``; ``as_written``: over
    every word the label shares with it, stop words too ("fair value", not "fair"); ``written``: the question as
    written, for its dates."""
    best = max(score for score, _ in scored)
    tied = sorted(code for score, code in scored if score == best)
    chosen = amounts_unless_shares_asked(
        _numbers_written(_dates_written(_due_when_written(tied, norm), f"{norm} {written}"), norm), norm)
    named_words = set(_words(named_in)) if as_written else set()
    span = _span(named_in, set().union(*((words_of[code] & asked) | (set(_words(label_of(code))) & named_words)
                                         for code in chosen)))
    if span is None:
        return None
    start, end = span
    readings = tuple(Reading(SlotKind.METRIC, code, label_of(code), norm) for code in chosen)
    return NearMiss(norm[start:end], readings, start, end)


# The words joining two rows a question computes with: "A and B", "A to B", "A as a percentage of B".
_JOINING = LazyPattern(r"(?<![a-z])(?:and|to|vs\.?|versus|over|against|divided by|as an? (?:percentage|proportion|"
                       r"ratio|share|fraction) of)(?![a-z])")
_OF = LazyPattern(r"(?<![a-z])of(?![a-z])")
# The word before the sections a row's item is written once for: "underlying rights for (both) A and B".
_SECTIONS_AFTER = LazyPattern(r"(?<![a-z])(?:for|of|in|under)(?:\s+both)?(?![a-z])")
# The joining words that name a part first and its whole after: "A as a percentage of B".
PART_OF_WHOLE = LazyPattern(r"(?<![a-z])as an? (?:percentage|proportion|share|fraction) of(?![a-z])")
# A ratio of two figures named "the ratio of A to B": the two sides split at "to".
_RATIO_OF = LazyPattern(r"(?<![a-z])ratio\s+of(?![a-z])")
_TO = LazyPattern(r"(?<![a-z])to(?![a-z])")
# The point in time a ratio's second side ends with, which dates its first side too ("as of end of period").
_BOTH_SIDES_DATED = LazyPattern(r"(?<![a-z])(?:as\s+(?:of|at)|at)(?=\s+(?:the\s+)?(?:end|beginning|start)(?![a-z]))")


def _two_rows_named(norm: str, leftover: str, words_of: dict[str, set[str]], score: _Scorer, *,
                    total_named: bool, joining: LazyPattern = _JOINING, ties: bool = False,
                    written: str = "") -> list[NearMiss]:
    """Two rows named in other words on either side of a joining word ("the ratio of fair value of total debt
    to carrying amount of total debt"), each read by its own words as one row alone would be; [] unless exactly
    one split reads two different rows, each the one best reading of its side.

    A row's item written once after two sections ("the fair value and carrying amount of total debt") is read
    with each: the first side takes the item after the second's "of" when the two rows are that item's in two
    sections; an item written once before two sections ("the underlying rights and other for both finite-lived
    and indefinite-lived intangible assets") is read with each alike. ``total_named``: "total" was blanked as
    the channel; a side writing it names it. ``joining``: the joining words split at. ``ties``: a side whose
    words fit several rows equally ("dividend per share" beside the rows "Dividend per share (p)" and "Dividend
    per share (€)") is read as that tie, asked back as one row alone would be (or told apart by whose figures
    are filed, ``rows_with_figures``), so long as no row fits both sides.
    """
    def one_row(spans: tuple[tuple[int, int], ...], *, tied: bool = False, total: bool = True) -> NearMiss | None:
        """The row the words of ``spans`` name (the first span the question's own, its reading spanning it): the
        one best, or with ``tied`` every row tying for best; ``total``: a "total" the spans write is a row's word."""
        asked = set().union(*(_content(_words(leftover[a:b])) for a, b in spans))
        if total and total_named and any(_TOTAL in _words(norm[a:b]) for a, b in spans):
            asked.add(_TOTAL)
        scored = score(asked) if asked else []
        if not scored or (sum(1 for s, _ in scored if s == max(scored)[0]) != 1 and not tied):
            return None
        (a, b), within = spans[0], " " * spans[0][0] + leftover[spans[0][0]:spans[0][1]]
        return _reading(norm, within, scored, words_of, asked, as_written=True, written=written) if b > a else None

    def codes(miss: NearMiss) -> frozenset[str]:
        return frozenset(reading.code for reading in miss.readings)

    pairs: dict[tuple[frozenset[str], frozenset[str]], tuple[NearMiss, NearMiss]] = {}
    for join in joining.finditer(leftover):
        second = one_row(((join.end(), len(leftover)),), tied=ties)
        first = one_row(((0, join.start()),), tied=ties)
        if second is None:  # "the (total) underlying rights and other for both finite-lived and indefinite-lived":
            # the item written once before two sections, its "total" the sum of the two rows asked
            total_a_word = first is not None
            own = first if first is not None else one_row(((0, join.start()),), total=False)
            second = None if own is None else _item_written_before(leftover, join, own,
                                                                   partial(one_row, total=total_a_word))
            first = own if second is not None else first
        if second is None:
            continue
        tail = _BOTH_SIDES_DATED.search(leftover, join.end()) if joining is _TO else None
        if tail is not None:  # "the ratio of A to B as of the end of the period": the date is both sides'
            first = one_row(((0, join.start()), (tail.start(), len(leftover))), tied=ties)
        shared = _OF.search(leftover, join.end())
        if first is None and shared is not None and len(second.readings) == 1:  # "fair value and carrying amount
            joined = one_row(((0, join.start()), (shared.end(), len(leftover))))  # of total debt"
            if joined is not None:  # the two rows are one item's in two sections, the first side names a section
                label = label_of(joined.readings[0].code)
                section = _content(_words(label[:_item_start(label)]))
                if (_item(label) == _item(label_of(second.readings[0].code))
                        and _content(_words(leftover[:join.start()])) - ASKING_WORDS <= section):
                    first = joined
        if first is not None and len(first.readings) == 1 and len(second.readings) > 1:
            second = _in_section_of(first, second)
        if first is None or codes(first) & codes(second):
            continue
        pairs[(codes(first), codes(second))] = (first, second)
    return list(next(iter(pairs.values()))) if len(pairs) == 1 else []


def _in_section_of(first: NearMiss, second: NearMiss) -> NearMiss:
    """The second side's tied rows narrowed to the one under the first side's section, where one is.

    "Cloud and license revenues from the Americas as compared to Asia Pacific" writes the section once: the
    second item ("Asia Pacific", a row of several sections) is the one of the section the first row is of.
    """
    section = label_of(first.readings[0].code)[:_item_start(label_of(first.readings[0].code))]
    same = [r for r in second.readings if section and label_of(r.code)[:_item_start(label_of(r.code))] == section]
    return replace(second, readings=tuple(same)) if len(same) == 1 else second


def _item_written_before(leftover: str, join: re.Match[str], first: NearMiss,
                         one_row: Callable[[tuple[tuple[int, int], ...]], NearMiss | None]) -> NearMiss | None:
    """The row of the second section a row's item written once before two sections names ("the underlying rights
    and other for both finite-lived and indefinite-lived intangible assets"), else None.

    The first side reads the item under its own section; the second side, naming a section alone, takes the item
    written before the first section's "for" ("of", "in", "under"). Read only where the two rows are that one
    item's, and each side's section words are its row's section's.
    """
    owners = list(_SECTIONS_AFTER.finditer(leftover, 0, join.start()))
    if not owners or len(first.readings) != 1:
        return None
    owner = owners[-1]
    second = one_row(((join.end(), len(leftover)), (0, owner.start())))
    if second is None or len(second.readings) != 1:
        return None
    first_label, second_label = label_of(first.readings[0].code), label_of(second.readings[0].code)
    if _item(first_label) != _item(second_label):
        return None
    sides = ((first_label, leftover[owner.end():join.start()]), (second_label, leftover[join.end():]))
    if any(not _content(_words(words)) - ASKING_WORDS <= _content(_words(label[:_item_start(label)]))
           for label, words in sides):
        return None
    return second


# a payment schedule's row qualified by when it falls due: "2022: finance leases", "thereafter: finance leases"
_DUE_QUALIFIER = LazyPattern(r"(?:19|20)\d{2}|thereafter")


def _due_when_written(chosen: list[str], norm: str) -> list[str]:
    """Tied rows of one payment schedule's line told apart by the one year the question writes, else all of them.

    ``2021: finance leases`` … ``thereafter: finance leases`` share their words but the year; "the
    finance leases for 2022" names ``2022: finance leases`` (its figure is then said to fall due
    in 2022, see ``due_years``). Rows of two lines, or a question writing two years or none, stay tied.
    """
    if len(chosen) < 2:
        return chosen
    parts = [label_of(code).partition(": ") for code in chosen]
    if len({row for _, _, row in parts}) != 1 or not all(sep and _DUE_QUALIFIER.fullmatch(when)
                                                         for when, sep, _ in parts):
        return chosen
    years = set(YEAR.findall(norm))
    if len(years) != 1:
        return chosen
    named = [code for code, (when, _, _) in zip(chosen, parts, strict=True) if when in years]
    return named if len(named) == 1 else chosen


# A day of a month as labels and questions write it: "31 december", "december 31", "1 jan".
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY_OF_MONTH = LazyPattern(rf"(?<![a-z\d])(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{_MONTH})"
                            rf"|(?P<month2>{_MONTH})\.?\s+(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?)(?![a-z\d])")


def _days_written(text: str) -> set[tuple[int, int]]:
    """The (month, day) of each date ``text`` writes."""
    days: set[tuple[int, int]] = set()
    for match in _DAY_OF_MONTH.finditer(unicodedata.normalize("NFKC", text).lower()):
        day = int(match["day"] or match["day2"])
        if 1 <= day <= 31:
            days.add((_MONTH_NUMBER[(match["month"] or match["month2"])[:3]], day))
    return days


_MONTH_NUMBER = {name: number for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}


def _dates_written(chosen: list[str], norm: str) -> list[str]:
    """Tied rows named by their date told apart by the one date the question writes, else all of them.

    A balance's rows differ by their date alone ("Balance at 1 January", "Balance at 31 December"),
    and words compare no dates: "the balance at 31 December 2019" names the second. Kept only where
    every tied row writes a date and exactly one row's dates are all among the question's; a question
    writing no date, or a date of no row ("1 December"), leaves every row offered back.
    """
    if len(chosen) < 2:
        return chosen
    dates = {code: _days_written(label_of(code)) for code in chosen}
    if not all(dates.values()):
        return chosen
    asked = _days_written(norm)
    named = [code for code in chosen if dates[code] <= asked]
    return named if len(named) == 1 else chosen


def _numbers_written(chosen: list[str], norm: str) -> list[str]:
    """Tied rows told apart by the numbers their labels write: the one row whose every number the question writes.

    Words compare rows without their numbers, so "Member aged 65 (current life expectancy)" and
    "Member aged 45 (life expectancy at age 65)" tie on "a member aged 65": only the first writes no
    number the question does not (45). Kept only where exactly one row writes a number, and each of its
    numbers, the question writes; otherwise every tied row stays offered back. Years are not such numbers:
    a schedule's rows by year are read by the years asked (``_due_when_written``), never chosen here.
    """
    if len(chosen) < 2:
        return chosen
    asked = {word for word in _words(norm) if word.isdigit()}
    numbers = {code: {word for word in _words(_DAY_OF_MONTH.sub(" ", _without_dating(label_of(code))))
                      if word.isdigit() and not _a_year(word)} for code in chosen}
    named = [code for code in chosen if numbers[code] and numbers[code] <= asked]
    return named if len(named) == 1 else chosen


def _a_year(number: str) -> bool:
    """A year written in a label ("2024: operating leases") dates its row, which the period reading answers for."""
    return len(number) == 4 and 1900 <= int(number) <= 2100


def _the_one_total_row(labels: list[str], asked: set[str],
                       item_words: dict[str, set[str]]) -> list[tuple[_Score, str]]:
    """The documents' one total row, scored as a candidate, when the question's words besides "total" (and those
    asking for arithmetic) are all words of its own line item; else none."""
    totals = [code for code in labels if is_a_total(code)]
    if len(totals) != 1:
        return []
    item = item_words[totals[0]]
    named = asked - (ASKING_WORDS - item)
    if _TOTAL not in named or _TOTAL not in item or not named <= item:
        return []
    return [((len(named) / len(item), len(named), 0, 0, 0, 0), totals[0])]


# "total" and up to four words after it, in the question with its names blanked ("among the total cost?")
_TOTAL_PHRASE = LazyPattern(r"(?<![a-z])total\s(?P<words>(?:[a-z][a-z'-]*\s?){1,4})")


def total_row_named_beside(norm: str, leftover: str, glossary: Glossary, read: tuple[str, ...]) -> NearMiss | None:
    """The documents' one total row, named by "total" and its own words beside a row already read, or None.

    "The percentage of employee severance costs among the total cost" reads the row it names and,
    for "the total cost", the table's one total row ("Total costs incurred"): the words right after
    "total" (in ``leftover``, the question with its names blanked, the channel's "total" kept in
    ``norm``) must all be words of that row's own line item, and no name read may go on the phrase
    ("the total cost of revenue" is a total of revenue's). Two total rows, or a word the row lacks, read
    nothing.
    """
    labels = [code for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX)]
    totals = [code for code in labels if is_a_total(code)]
    if len(totals) != 1 or totals[0] in read:
        return None
    item = _content(_words(_item(label_of(totals[0]))))
    for match in _TOTAL_PHRASE.finditer(norm):
        following = _WORD_RUN.match(leftover, match.start("words"))
        written = _WORD_RUN.match(norm, match.start("words"))
        if following is None or written is None or following.group() != written.group():
            continue  # a name read goes on the phrase ("the total cost of revenue"): the total is of that
        words = _content(_words(following.group()))
        if words and _TOTAL in item and words <= item:
            end = match.start("words") + len(following.group())
            return NearMiss(norm[match.start():end],
                            (Reading(SlotKind.METRIC, totals[0], label_of(totals[0]), norm),), match.start(), end)
    return None


# the words that follow, up to a name blanked (two spaces or more) or a stop of the sentence
_WORD_RUN = LazyPattern(r"[a-z][a-z'-]*(?:\s[a-z][a-z'-]*)*")


def _without_remarks(text: str) -> str:
    """``text`` without its remarks in parentheses, nested ones too ("carrying amount (non-current
    (liabilities)/assets)": "carrying amount")."""
    while True:
        bare = _PARENTHESES.sub(" ", text)
        if bare == text:
            return bare
        text = bare


# What a row says of when its figure fell and at what rate ("Final dividend *for the year ended 30 June 2018
# of AU 14 cents*", "Granted *during the period*"): the columns date it, the question names the item.
_DATING = LazyPattern(
    r"(?<![a-z])(?:for|during|in)\s+the\s+(?:(?:half|full|financial|fiscal)[\s-]+)?(?:year|period|quarter)"
    r"(?:\s+(?:then\s+)?(?:ended|ending)(?:\s+(?:\d{1,2}\s+[a-z]+|[a-z]+\s+\d{1,2},?)\s+\d{4})?)?"
    r"|(?<![a-z])of\s+(?:(?:[a-z]{1,3}\s?)?[$£€¥]\s?\d[\d.,]*(?:\s?(?:cents?|pence|sen))?|(?:[a-z]{1,3}\s)?\d[\d.,]*\s?"
    r"(?:cents?|pence|sen|p))(?:\s+per\s+(?:ordinary\s+)?share)?(?![\w.])")


def _without_dating(text: str) -> str:
    """``text`` without the dating and the per-share rate a row's label may carry (``_DATING``)."""
    return _DATING.sub(" ", text)


def _compounds(text: str) -> set[str]:
    """The hyphenated words of a text as written (``non-usd``, ``non-current``), in NFKC lower case."""
    return set(_COMPOUND.findall(unicodedata.normalize("NFKC", text).lower()))


# "Less voyage expenses", "Add depreciation": the word says how the line enters the total above it, no
# word of the item a question names it by ("the voyage expenses"); "less than one year" is an item's own.
_SIGN_WORD = LazyPattern(r"^\s*(?:less|add|plus|deduct)\s+(?!than(?![a-z]))", re.IGNORECASE)


def _item(label: str) -> str:
    """A qualified label's own line item (``net sales: malaysia`` -> ``malaysia``): its section may go unnamed,
    as may a leading word saying how the line enters a total (``less voyage expenses`` -> ``voyage expenses``)."""
    return _SIGN_WORD.sub("", label[_item_start(label):])


def _item_start(label: str) -> int:
    """Where a qualified label's item begins: after its last ": " outside parentheses (a remark "(2017: AU 12
    cents)" is no section)."""
    depth, start = 0, 0
    for at, char in enumerate(label):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and label.startswith(": ", at):
            start = at + 2
    return start


def _span(leftover: str, asked: set[str]) -> tuple[int, int] | None:
    """From the first to the last content word of the leftover text (what the reading replaces)."""
    norm = leftover.replace("-", " ").replace("&", " ")
    found = list(_WORD.finditer(norm))
    spots = [m.span() for m, word in zip(found, _matching([m.group() for m in found]), strict=True) if word in asked]
    if not spots:
        return None
    return spots[0][0], spots[-1][1]
