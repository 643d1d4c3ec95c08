"""What arithmetic a question asks for beyond reading figures, and how it wants the result rounded.

Read from the question's own words in zh / en / ja with the glossary's names blanked out (so
流動比率 is a metric, not a request for a ratio): an average, a ratio of two named metrics, a
compound annual growth rate, a sum or difference of named metrics, a difference between two
entities, a consistency check ("does A equal B + C?"), the decimal places and whether in percent.
A pure function of the text and the glossary, so a parsed question may keep it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind, normalize_text
from ragspine.facts.matching import trie_pattern
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.current_parts import with_current_parts
from ragspine.qa.label_words import label_words
from ragspine.qa.reported_versions import EARLIER_VERSION
from ragspine.qa.slots import ParsedSlots

_NUMBER_WORDS = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                 "七": 7, "八": 8, "九": 9, "十": 10, "〇": 0, "零": 0}
_WORD = r"(\d{1,2}|zero|no|one|two|three|four|five|six|seven|eight|nine|ten|[一二两三四五六七八九十〇零])"


# The cue patterns compile on first use (``LazyPattern``): most questions hold no cue word (``_ANY_CUE``
# says so in one pass), so a cold start answering one never compiles the two dozen patterns below.
# The words of each cue pattern, for the one-pass test whether a question holds any of them (``_ANY_CUE``).
_WORDS_OF: dict[LazyPattern, tuple[str, ...]] = {}


def _cue(*words: str) -> LazyPattern:
    # Longest first: an alternation takes its first word that matches, and 平均 before 平均值 would leave 值
    # of "平均值与" (a name no company holds) when the cue is taken out of a question's unknown names.
    parts = [rf"(?<![a-z]){re.escape(w)}(?![a-z])" if w[:1].isascii() and w[:1].isalpha() else re.escape(w)
             for w in sorted(words, key=len, reverse=True)]
    # The lookahead on the possible first characters rejects most positions with one class test
    # (without it ``re`` tries every alternative at every position); what matches is unchanged.
    first = "".join(sorted({re.escape(w[:1]) for w in words}))
    pattern = LazyPattern(f"(?=[{first}])(?:{'|'.join(parts)})")
    _WORDS_OF[pattern] = words
    return pattern


AVERAGE = _cue("average", "averages", "mean", "avg", "平均", "均值", "平均值")
# "the ratio (in percentage) of": the unit said inside the cue, as "the proportion (in percentage) of" below
RATIO = _cue("ratio of", "ratio (in percentage) of", "ratio, in percentage, of", "ratio between", "divided by",
             "as a percentage of", "as a percent of", "as a share of", "as a % of", "as % of",
             "as a proportion of", "as a fraction of",
             "之比", "比值", "比率", "比例", "に対する", "に占める", "を占める", "占める", "割合", "で割った", "除以")
CAGR = _cue("cagr", "compound annual growth", "compounded annual growth", "annualized growth", "annualised growth",
            "年均复合增长率", "复合年增长率", "年复合增长率", "复合增长率", "年均增长率", "年平均成長率",
            "年平均成长率", "年率平均成長率", "年平均増加率")
SUBTRACT = _cue("minus", "less", "subtract", "subtracting", "deduct", "deducting", "net of", "減去", "减去", "扣除",
                "差し引いた", "差し引く", "差し引き", "を引いた", "引いた")
ADD = _cue("sum of", "total of", "plus", "added to", "combined", "之和", "的和", "加上", "合计", "の和", "を足した",
           "足した", "合算", "合計額", "の合計", "合計は")
# "the total underlying rights for both finite-lived and indefinite-lived assets": the two named added up (two
# periods after "both" are PERIOD_SUM's: "the total revenue for both 2018 and 2019")
_TOTAL_FOR_BOTH = LazyPattern(r"(?<![a-z])total(?![a-z]).*?(?<![a-z])(?:for|of|in|under)\s+both\s+"
                              r"(?!(?:fy|f)?'?\d|(?:fys?|years?|periods?|quarters?|fiscal|months?|halves|half)(?![a-z]))")
ENTITY_GAP = _cue("difference", "differ", "gap", "more than", "less than", "higher than", "lower than", "exceed",
                  "相差", "差额", "差距", "之差", "差多少", "高多少", "多多少", "少多少", "低多少", "差異", "差は",
                  "の差", "上回", "下回")
# A difference asked in so many words (not "more than" or "exceed", which may be words of a row's own name):
# between two rows of one period it is the size of their gap ("the difference between APAC and EMEA in 2019").
DIFFERENCE = _cue("difference", "differ", "gap", "相差", "差额", "差距", "之差", "差多少", "差異", "の差", "差は")
# "How much less X came from A as compared to B", "how much lower was A than B": the size of a gap asked as a
# comparison, its direction said in words; "less" here compares, it takes nothing away (A − B would be negative)
_HOW_MUCH_COMPARED = LazyPattern(
    r"(?<![a-z])how\s+much\s+(?:less|lower|fewer|smaller|more|higher|greater|larger|bigger)(?![a-z])"
    r".*?(?<![a-z])(?:than|(?:as\s+)?compared\s+(?:to|with)|relative\s+to)(?![a-z])", re.DOTALL)
# A difference asked as a percentage of the second figure named: "the percentage difference between fair
# value and carrying amount" is (fair value - carrying amount) / carrying amount
RELATIVE_DIFFERENCE = _cue("percentage difference", "percent difference", "relative difference")
# A part as a share of a whole: "the percentage of audit fees in total fees", "what proportion of … is made up of"
# "the proportion (in percentage) of", "the proportion, in percentage, of": the unit said inside the cue;
# "hardware % of total revenue": the sign written for the word
SHARE_OF = _cue("percentage of", "percent of", "% of", "proportion of", "proportion (in percentage) of",
               "proportion, in percentage, of", "share of", "percentage constitution", "out of",
               "占")  # 瑞士收入占税前收入总额的百分比: the part 占 (takes up) the whole
# The whole a share divides by is the sum of parts the question names: "of A, B and C combined", A和B合计中
COMBINED = _cue("combined", "together", "in total", "altogether", "合计", "合計", "总和", "之和", "合算", "の和",
                "合わせ")
_LIST_SEPARATOR = LazyPattern(r"\s*(?:,|、|,?\s*and|&|和|与|及|以及|と|および|及び)\s*")
_JOINED_TO_SUM = LazyPattern(r"\s*(?:的|の)?\s*")
# One figure over several periods added up: "the total deposits in 2018 and 2019", "altogether", 合计
PERIOD_SUM = _cue("total", "sum", "sum of", "altogether", "in total", "combined", "合计", "总计", "总和", "合計",
                  "合算")
EQUALS = _cue("equal", "equals", "add up to", "adds up to", "match", "matches", "consistent with", "等于", "相等",
              "一致", "符合", "吻合", "一致する", "等しい", "合致")
CHANGE = _cue("change", "changes", "difference", "increase", "decrease", "変化", "増減", "变化", "变动", "差")
# A growth rate averaged ("the average revenue growth of the divisions"): a mean of rates, never of amounts
GROWTH = _cue("growth", "growth rate", "growth rates", "grew", "增长率", "增长", "增速", "成長率", "伸び率",
              "増加率", "増収率")
PERCENT = _cue("in %", "in percent", "as a percentage", "as a percent", "percentage", "何%", "何％", "百分之几",
               "百分比", "百分率", "パーセント", "%")
# Every word of every cue ``read_arithmetic`` searches for, as one prefix tree: a question holding none
# of them anywhere (most questions) matches no cue, which one pass finds instead of a dozen searches.
# Unguarded: the tree opens the pattern, so ``re`` skips to the positions of its first characters in C.
_CUE_WORDS = tuple(word for cue in (
    AVERAGE, RATIO, CAGR, SUBTRACT, ADD, ENTITY_GAP, DIFFERENCE, SHARE_OF, PERIOD_SUM, EQUALS, CHANGE, PERCENT)
    for word in _WORDS_OF[cue])
_ANY_CUE = LazyPattern(trie_pattern(_CUE_WORDS, guarded=False))
# Blanking a name turns its characters into spaces and changes no other: a cue word the question
# lacks can appear in the blanked question only when the word holds a space ("ratio of").
_ANY_SPACED_CUE = LazyPattern(trie_pattern((word for word in _CUE_WORDS if " " in word), guarded=False))
# Every word without which ``read_arithmetic`` finds nothing in a question naming one metric and no formula
# metric (a ratio written between two metrics and a formula chosen need two, or a formula metric): the cue words
# and the places' words, as the normalised question holds them. Its "total" rewrite is read from the question
# itself: the caller checks that word there (NFKC may join a combining mark to its "l").
ONE_METRIC_WORDS = (*_CUE_WORDS, "whole", "integer", "整", "decimal", "小数")
# A spaced cue word matches the blanked question where a name's blanked character stands in its space, so in
# the normalised question each of its spaces is any character. As a prefix tree, unguarded as ``_ANY_SPACED_CUE``:
# a position opening a word meets its few branches, not every word's.
SPACED_CUE_WORDS = tuple(word for word in _CUE_WORDS if " " in word)
SPACED_CUES_ANYWHERE = LazyPattern(trie_pattern(SPACED_CUE_WORDS, guarded=False)
                                   .replace(r"\ ", "."), re.DOTALL)
_PLACES = (
    (LazyPattern(rf"(?:to|rounded to|round to|with)\s+(?:the\s+)?{_WORD}\s+decimal(?:\s+places?|s)?"), 0),
    (LazyPattern(rf"{_WORD}\s+decimal\s+places?"), 0),
    (LazyPattern(rf"保留\s*{_WORD}\s*位小数"), 0),
    (LazyPattern(rf"(?:精确|精確)到小数点后\s*(?:第\s*)?{_WORD}\s*位"), 0),
    (LazyPattern(rf"小数点(?:以下)?\s*第?\s*{_WORD}\s*位を四捨五入"), -1),  # round at the n-th place: n-1 kept
    (LazyPattern(rf"小数点(?:以下)?\s*第?\s*{_WORD}\s*位(?:まで(?:求めよ|で)?)?"), 0),
)
_WHOLE = _cue("nearest whole number", "nearest integer", "whole number", "取整", "保留整数", "整数で")
_YEAR = LazyPattern(r"(?<!\d)(?:19|20)\d\d(?!\d)")
# "2017-2018", "FY2018–FY2019", "2017年至2018年", "2018年～2019年", "2018年から2019年": two years written as one span
_SPAN = LazyPattern(r"(?<![0-9a-z])(?:fy)?((?:19|20)\d\d)(?:年度?)?\s*(?:-|–|—|~|～|至|到|から)\s*"
                    r"(?:fy)?((?:19|20)\d\d)(?!\d)")
# "the average difference between A and B": one mean, of the two rows' gap year by year
_AVERAGED_GAP = LazyPattern(r"(?<![a-z])(?:average|mean) (?:difference|gap) between(?![a-z])")
# "the change in the average life expectancy from 2018 to 2019": the average is what the row's figure is (a mean
# over a period would say which: "the average monthly", "the 2019 average")
_CHANGE_IN_AVERAGE = LazyPattern(r"(?<![a-z])(?:change|increase|decrease|difference) in (?:the )?average "
                                 r"(?!(?:annual|monthly|quarterly|weekly|daily|yearly|of)(?![a-z]))")
# "the change between 2018 and 2019 average X", "2019's average": the years standing right before "average"
_YEARS_AVERAGED = LazyPattern(r"(?<![\w])(?:fy\s?)?((?:19|20)\d\d)(?:年度?)?(?:\s*(?:and|&|和|与|と)\s*(?:fy\s?)?"
                              r"((?:19|20)\d\d)(?:年度?)?)?(?:'s)?\s*(?:averages?(?![a-z])|平均)")
_YEARS = LazyPattern(rf"(?<!\d){_WORD}\s*-?\s*(?:years?|yr|年間|年间|年)(?:\s*-?\s*(?:cagr|compound|复合|年均|平均))?")


@dataclass(frozen=True, slots=True)
class Arithmetic:
    """The computations a question asks for and the rounding it wants (None: the channel's default)."""

    average: bool = False
    ratio: bool = False
    cagr: bool = False
    cagr_years: int | None = None
    subtract: bool = False
    add: bool = False
    entity_gap: bool = False
    difference: bool = False  # "difference", 相差, の差: the gap between two rows of one period may be asked
    relative_difference: bool = False  # "percentage difference between A and B": (A - B) / B
    consistency: bool = False
    change: bool = False  # a change or difference is asked too ("the change between the 2018 and 2019 average")
    growth: bool = False  # an average of growth rates ("the average revenue growth"): read only beside "average"
    averages: int = 0  # how often the question says "average" (a row's own "weighted average …" may be one)
    averaged_gap: bool = False  # "the average difference between A and B": the mean over the years of their gap
    change_in_average: bool = False  # "the change in the average X from 2018 to 2019": "average" qualifies the row
    share_of: bool = False  # a part of a whole asked ("percentage of A in total B"): the whole divides
    whole: str | None = None  # the one metric the question calls the total ("of the total B", B合计): the whole
    period_sum: int = 0  # how often the question's own words (names blanked) say "total", "sum", "altogether"
    sum_words: int = 0  # the same words anywhere in the question, names included ("Total cost of revenue")
    # a name's own lower-case "total" over two or more named periods asks their sum (qa/period_totals.py)
    periods_totalled: bool = False
    places: int | None = None
    percent: bool = False
    years: tuple[str, ...] = ()  # the years the question writes, in its order ("2019 … as a percentage of 2018")
    denominator: str | None = None  # the metric a ratio divides by, when the wording says ("A に占める B")
    explicit: tuple[str, str] | None = None  # "(経常利益/総資産)": the question's own ratio of two metrics
    plus_group: tuple[str, ...] = ()  # "(流動資産+固定資産)": metrics the question itself adds up
    # "ROEをDuPont分解(純利益率×総資産回転率×財務レバレッジ)で": the formula metric asked, then its factors
    by_formula: tuple[str, ...] = ()
    # "what percentage of A, B and C combined is A": the part (named twice), then every part the whole adds up
    parts_whole: tuple[str, ...] = ()
    # "the percentage of A and B over total revenue": the whole that divides, then the parts whose sum it divides
    parts_over: tuple[str, ...] = ()
    spans: tuple[tuple[str, str], ...] = ()  # year spans written ("between 2017-2018 and 2018-2019"), in order

    def __bool__(self) -> bool:
        return self != NO_ARITHMETIC

    @property
    def computes(self) -> bool:
        """Whether any computation (not just rounding) is asked for."""
        # ``difference`` words are among ``entity_gap``'s; read three times an ask: no tuple, no call of ``any``
        return bool(self.average or self.ratio or self.cagr or self.subtract or self.add or self.entity_gap
                    or self.consistency or self.period_sum)


NO_ARITHMETIC = Arithmetic()


def read_arithmetic(question: str, glossary: Glossary) -> Arithmetic:
    """The arithmetic ``question`` asks for, its names blanked so a metric's own words are never a cue.

    "The total <item>" stated as a current and a non-current row is the sum of the two, as the slots read it.
    """
    norm, text, metrics = _cue_texts(with_current_parts(question, glossary), glossary)
    if (not _ANY_CUE.search(norm) and (text is norm or not _ANY_SPACED_CUE.search(text))
            and not _HOW_MUCH_COMPARED.search(text)):
        # No cue word anywhere (most questions): every cue search would find nothing, so none is run.
        explicit = _explicit_ratio(norm, metrics)
        places = _places(norm)
        by_formula = _by_formula(norm, metrics, glossary)
        if explicit is None and places is None and not by_formula:
            return NO_ARITHMETIC  # nothing asked: the one empty reading, not 25 fields built per ask
        return Arithmetic(ratio=explicit is not None, places=places,
                          denominator=explicit[1] if explicit else None, explicit=explicit, by_formula=by_formula)
    return _read_cues(norm, text, metrics, glossary)


def _cue_texts(question: str, glossary: Glossary) -> tuple[str, str, list[Mention]]:
    """The normalised question, the same with its names blanked (channels kept), and its metric mentions."""
    norm = normalize_text(question)
    # Names blanked, channels kept: 合計 names the total channel and is also the word for a sum.
    mentions = glossary.scan(question)
    metrics = [m for m in mentions if m.kind is SlotKind.METRIC and m.code]
    text = glossary.leftover(question, [m for m in mentions if m.kind is not SlotKind.CHANNEL])
    return norm, text if len(text) == len(norm) else norm, metrics


def _read_cues(norm: str, text: str, metrics: list[Mention], glossary: Glossary) -> Arithmetic:
    """Every cue searched for (``text``: names blanked; ``norm``: the whole normalised question)."""
    consistency = bool(EQUALS.search(text))
    cagr = bool(CAGR.search(norm))
    years = None
    if cagr:
        match = _YEARS.search(text)
        years = _number(match.group(1)) if match else None
    explicit = _explicit_ratio(norm, metrics)
    # read only where no ratio wording says which figure divides ("A as a percentage of B")
    share_of = bool(SHARE_OF.search(text)) and not CHANGE.search(text) and not RATIO.search(text)
    ratio = bool(RATIO.search(text)) or explicit is not None or share_of
    denominator = explicit[1] if explicit else _denominator(norm, metrics) if ratio else None
    average = _asks_average(text) and not cagr
    compared = bool(_HOW_MUCH_COMPARED.search(text))
    return Arithmetic(
        average=average, growth=average and bool(GROWTH.search(text)), ratio=ratio, cagr=cagr,
        cagr_years=years if years and years > 0 else None, subtract=bool(SUBTRACT.search(text)) and not compared,
        add=bool(ADD.search(text)) or bool(_TOTAL_FOR_BOTH.search(norm))
        or (consistency and ("+" in text or "和" in text or "sum" in text)),
        entity_gap=compared or bool(ENTITY_GAP.search(text)), difference=compared or bool(DIFFERENCE.search(text)),
        relative_difference=bool(RELATIVE_DIFFERENCE.search(text)),
        consistency=consistency, places=_places(norm),
        change=bool(CHANGE.search(text)), averages=len(AVERAGE.findall(norm)),
        averaged_gap=average and bool(_AVERAGED_GAP.search(text)),
        change_in_average=average and bool(_CHANGE_IN_AVERAGE.search(text)),
        share_of=share_of, whole=_whole_named(norm, metrics) if share_of else None,
        period_sum=len(PERIOD_SUM.findall(text)), sum_words=len(PERIOD_SUM.findall(norm)),
        percent=bool(PERCENT.search(norm)), years=tuple(dict.fromkeys(_YEAR.findall(norm))) if ratio else (),
        denominator=denominator, explicit=explicit, plus_group=_plus_group(norm, metrics) if consistency else (),
        by_formula=_by_formula(norm, metrics, glossary),
        spans=_spans(norm, change=bool(CHANGE.search(text))) if not cagr else (),
        parts_whole=_parts_whole(norm, metrics) if (share_of or ratio) and COMBINED.search(text) else (),
        parts_over=_parts_over(norm, metrics, denominator) if ratio and denominator and len(metrics) >= 3 else ())


def _spans(norm: str, *, change: bool) -> tuple[tuple[str, str], ...]:
    """The year spans a question averages over, in its order: each written ("2017-2018"), or, for a change
    between two years each qualifying "average" ("the change between 2018 and 2019 average free cash flow"),
    each year with the year before it, as "the 2019 average" of a balance is its opening and closing mean."""
    written = tuple((m.group(1), m.group(2)) for m in _SPAN.finditer(norm))
    if written or not change:
        return written
    years = [year for m in _YEARS_AVERAGED.finditer(norm) for year in m.groups() if year]
    if len(years) != 2 or years[0] == years[1]:
        return ()
    return tuple((str(int(year) - 1), year) for year in years)


def _parts_whole(norm: str, metrics: list[Mention]) -> tuple[str, ...]:
    """The part a share asks for (the one metric named twice: in the parts and as the part) and the parts
    added up into its whole, in the question's order; () unless exactly one is named twice, the others once.

    The parts are a list of names with nothing but separators between them, right before the word that
    adds them up ("A, B and C combined", A和B合计, AとBの合計): a word left between them may be a part no
    figure is read for ("A, B and other fees combined"), and a whole without it is a wrong number.
    """
    named = [str(m.code) for m in metrics]
    twice = [code for code in dict.fromkeys(named) if named.count(code) == 2]
    parts = list(dict.fromkeys(named))
    if len(twice) != 1 or len(named) != len(parts) + 1 or len(parts) < 2:
        return ()
    adding = COMBINED.search(norm)
    before = [m for m in metrics if adding is not None and m.end <= adding.start()]
    if not before or not _JOINED_TO_SUM.fullmatch(norm[before[-1].end:adding.start() if adding else 0]):
        return ()
    run = _listed_run(norm, before)
    listed = [str(m.code) for m in run]
    return (twice[0], *listed) if sorted(listed) == sorted(parts) else ()


def _listed_run(norm: str, before: list[Mention]) -> list[Mention]:
    """The last of ``before`` and the names listed right before it with only separators between them."""
    run = [before[-1]]
    for mention in reversed(before[:-1]):
        if not _LIST_SEPARATOR.fullmatch(norm[mention.end:run[0].start]):
            break
        run.insert(0, mention)
    return run


# Between the parts listed and the whole that divides their sum: "A and B over total revenue", "… as a
# percentage of the total …", "… out of …" ("the ratios of A and B to C" may ask one ratio of each)
_DIVIDES_SUM = LazyPattern(r"\s*(?:over|out of|as an? (?:percentage|percent|share|proportion) of)\s+(?:the\s+)?")
# "to" or "divided by" divides the parts' sum only where the question names a sum of them ("the proportion of
# the sum of A and B to C"): without it, "the ratios of A and B to C" may ask one ratio of each
_DIVIDES_NAMED_SUM = LazyPattern(r"\s*(?:to|divided\s+by)\s+(?:the\s+)?")
_SUM_OF = LazyPattern(r"(?<![a-z])(?:sum|total)\s+of(?![a-z])")
# A metric qualifying the parts listed right after it: "revenue from Taiwan and Japan"
_QUALIFIES = LazyPattern(r"\s+(?:from|of|in|for)\s+(?:the\s+)?")


def _parts_over(norm: str, metrics: list[Mention], whole: str) -> tuple[str, ...]:
    """The whole a share divides by and the parts listed right before it whose sum it divides ("the
    percentage of revenue from Taiwan and Japan over total revenue"); () unless they are plain.

    The parts are two names or more with nothing but separators between them ("A and B", "A, B and C"),
    the whole named right after them by a word that divides ("over", "as a percentage of"). One metric
    may stand before the parts as what they are of ("revenue from A and B"); any other name, or a word
    left between the names (a part no figure is read for), leaves the question to the ratio's reading.
    """
    wholes = [m for m in metrics if m.code == whole]
    if len(wholes) != 1:
        return ()
    before = [m for m in metrics if m.end <= wholes[0].start]
    if len(before) < 2:
        return ()
    between = norm[before[-1].end:wholes[0].start]
    sum_named = _DIVIDES_NAMED_SUM.fullmatch(between) is not None
    if not (_DIVIDES_SUM.fullmatch(between) or sum_named):
        return ()
    owned = _owned_by_parts(norm, before)
    if owned is not None:  # "A and B's net sales over total net sales": what the parts are of, named after them
        before = before[:-1]
    run = _listed_run(norm, before)
    if sum_named and not _SUM_OF.search(norm, 0, run[0].start):
        return ()
    rest = [m for m in metrics if m not in run and m is not wholes[0] and m is not owned]
    qualifier = rest[-1] if rest and rest[-1].end <= run[0].start else None
    if (len(run) < 2 or len(rest) > 1 or (rest and (qualifier is None
                                                    or not _QUALIFIES.fullmatch(norm[qualifier.end:run[0].start])))):
        return ()
    parts = [str(m.code) for m in run]
    if len(set(parts)) != len(parts) or whole in parts:
        return ()
    return (whole, *parts)


# A name joined to the part listed before it by a possessive: "Refrigerated & Frozen's net sales"
_POSSESSIVE = LazyPattern(r"['’]s\s+(?P<words>(?:[a-z]+\s+)*)")


def _owned_by_parts(norm: str, before: list[Mention]) -> Mention | None:
    """The last name of ``before`` where it says what the parts listed before it are of ("A and B's net sales"):
    joined to the last part by a possessive, and every word of it a word of each part's row (the rows of net
    sales by segment); else None. Such a name is no part of the sum."""
    joined = _POSSESSIVE.fullmatch(norm[before[-2].end:before[-1].start]) if len(before) >= 3 else None
    if joined is None:
        return None
    named = label_words(f"{joined['words']} {before[-1].raw}")
    parts = [m.code or "" for m in before[:-1]]
    if not named or not all(p.startswith(METRIC_PREFIX) and named <= label_words(label_of(p)) for p in parts):
        return None
    return before[-1]


_WEIGHTED = LazyPattern(r"weighted[\s-]*$")


def _asks_average(text: str) -> bool:
    """An average asked: "weighted-average shares" names a figure, it asks no mean."""
    return any(not _WEIGHTED.search(text[:m.start()]) for m in AVERAGE.finditer(text))


_TIMES = frozenset({"×", "*", "x", "✕"})  # between two factor names: "A × B × C"


def _by_formula(norm: str, metrics: list[Mention], glossary: Glossary) -> tuple[str, ...]:
    """The formula metric the question asks for by its method, then its factors; () when it asks none.

    Two wordings ask for a figure by its formula: the factors written as a product ("ROE
    (純利益率×総資産回転率×財務レバレッジ)", "ROE using net margin × asset turnover × leverage"),
    and a formula metric named with the figure it is a way of computing ("ROE by DuPont analysis":
    one of its names holds another metric's name). Either way the answer is that formula metric,
    not the other figure of the same name computed another way.
    """
    named = list(dict.fromkeys(str(m.code) for m in metrics))
    multiplied: set[str] = set()
    for first, second in zip(metrics, metrics[1:], strict=False):
        if norm[first.end:second.start].strip() in _TIMES and first.code != second.code:
            multiplied.update({str(first.code), str(second.code)})
    if not multiplied and not any(code in glossary.formulas for code in named):
        return ()  # neither a product of factors nor a formula metric named: no formula can be chosen
    added = set(_plus_group(norm, metrics))
    chosen = None
    for code, formula in glossary.formulas.items():
        factors = set(formula.inputs)
        by_product = len(factors) >= 2 and factors == multiplied
        by_name = code in named and any(_names_variant(code, other, glossary) for other in named
                                        if other not in factors)
        # "operating income + D&A (EBITDA)": a sum metric named beside exactly the inputs it adds up
        by_sum = (len(factors) >= 2 and factors == added and _adds(formula.tree)
                  and _bracketed_after_sum(norm, metrics, code))
        if by_product or by_name or by_sum:
            chosen = (code, formula.inputs)
            break
    if chosen is None:
        return ()
    code, inputs = chosen
    unit = glossary.term(SlotKind.METRIC, code).unit

    def computed_otherwise(other: str) -> bool:  # ROE beside DuPont ROE: the figure the formula computes
        if _names_variant(code, other, glossary):
            return True
        return code not in named and glossary.term(SlotKind.METRIC, other).unit == unit

    others = [m for m in named if m != code and m not in inputs and not computed_otherwise(m)]
    return tuple(dict.fromkeys((code, *inputs, *others)))


def _bracketed_after_sum(norm: str, metrics: list[Mention], code: str) -> bool:
    """Whether ``code`` is named only in brackets after the sum ("A + B (EBITDA)"): the name of what is added.

    "Define EBITDA as A + B" names it before: the sum defines an input of what is asked (an EBITDA margin).
    """
    added = [i for i, (first, second) in enumerate(zip(metrics, metrics[1:], strict=False))
             if norm[first.end:second.start].strip() in ("+", "＋")]
    if not added:
        return False
    end = metrics[added[-1] + 1].end
    own = [m for m in metrics if m.code == code]
    return bool(own) and all(m.start >= end and "(" in norm[end:m.start] for m in own)


def _adds(tree: ast.expr) -> bool:
    """Whether a formula's outermost operation is an addition (``A + ABS(B)``), so "A + B" names it."""
    return isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Add)


def _names_variant(code: str, other: str, glossary: Glossary) -> bool:
    """Whether one of formula metric ``code``'s names holds a name of metric ``other`` ("DuPont ROE", "ROE")."""
    if other == code:
        return False
    mine = [alias for alias, (_, owner) in glossary.aliases.items() if owner == code]
    theirs = [alias for alias, (_, owner) in glossary.aliases.items() if owner == other and len(alias) >= 2]
    return any(re.search(rf"(?<![a-z]){re.escape(t)}(?![a-z])", m) for m in mine for t in theirs if t != m)


def _plus_group(norm: str, metrics: list[Mention]) -> tuple[str, ...]:
    """The metrics written joined by ``+`` (one side of a consistency check), in order."""
    group: dict[str, None] = {}
    for first, second in zip(metrics, metrics[1:], strict=False):
        if norm[first.end:second.start].strip() in ("+", "＋"):
            group.update({str(first.code): None, str(second.code): None})
    return tuple(group)


def _explicit_ratio(norm: str, metrics: list[Mention]) -> tuple[str, str] | None:
    """``A/B`` written between two metric names, or ``A to B`` ("net debt to EBITDA", as analysts name a leverage
    ratio): the question defines the figure itself. Not after "from" or "between" ("from revenue to operating
    income" moves from one figure to the other)."""
    for first, second in zip(metrics, metrics[1:], strict=False):
        between = norm[first.end:second.start].strip()
        if first.code == second.code:
            continue
        if between == "to" and _ends_a_named_sum(norm, metrics, first):
            continue  # "the sum of A and B to C": the sum is divided, never B alone (``_parts_over``)
        if between in ("/", "÷") or between == "to" and not _MOVES.intersection(norm[:first.start].split()):
            return str(first.code), str(second.code)
    return None


def _ends_a_named_sum(norm: str, metrics: list[Mention], last: Mention) -> bool:
    """Whether ``last`` ends a list of names the question calls a sum ("the sum of A and B")."""
    run = _listed_run(norm, [m for m in metrics if m.end <= last.end])
    return len(run) >= 2 and _SUM_OF.search(norm, 0, run[0].start) is not None


_MOVES = frozenset({"from", "between", "compare", "compared", "comparing"})


# "A に占める B の割合", "A に対する": the metric just before the words divides. "A to B", "A as a
# percentage of B", "A divided by B", "A 占 B": the metric just after them divides.
_DIVIDES_BEFORE = LazyPattern(r"に占める|に対する|で割った|で割る")
_DIVIDES_AFTER = LazyPattern(r"(?<![a-z])(?:to|of|by|over)(?![a-z])|占|除以")
_NEAR = 3  # characters between the words and the metric they point at


def _denominator(norm: str, metrics: list[Mention]) -> str | None:
    for cue in _DIVIDES_BEFORE.finditer(norm):
        before = [m for m in metrics if 0 <= cue.start() - m.end <= _NEAR]
        if before:
            return before[-1].code
    for cue in _DIVIDES_AFTER.finditer(norm):
        after = [m for m in metrics if 0 <= m.start - cue.end() <= _NEAR]
        if after and any(m.end <= cue.start() for m in metrics):  # a metric on each side: A to B
            return after[0].code
    return None


# "the total B", "of total B", "B 总额", "B 合計": the question's own word makes B the whole of a share,
# though the row's name says no total ("Income before taxes" summing "Swiss" and "Non-Swiss").
_TOTAL_BEFORE = LazyPattern(r"(?<![a-z])total\s+(?:of\s+)?(?:the\s+|all\s+)?$")
_TOTAL_AFTER = LazyPattern(r"\s*(?:的)?(?:总额|总计|合计|总和|合計|総額)")


# "the percentage of A in B", "the percentage constitution of A in B": B, named right after the part, holds it
_SHARE_BEFORE = LazyPattern(r"(?:(?<![a-z])(?:percentage|percent|proportion|share)(?:\s+constitution)?|%)"
                            r"\s+of\s+(?:the\s+)?$")
_PART_IN = LazyPattern(r"\s+in\s+(?:the\s+)?$")


def _whole_named(norm: str, metrics: list[Mention]) -> str | None:
    """The one metric the question's words call the total (the whole of a share), else None."""
    named = {str(m.code) for m in metrics
             if _TOTAL_BEFORE.search(norm[max(0, m.start - 16):m.start]) or _TOTAL_AFTER.match(norm, m.end)}
    if not named and len(metrics) == 2:
        part, whole = sorted(metrics, key=lambda m: m.start)
        if (_SHARE_BEFORE.search(norm[max(0, part.start - 32):part.start])
                and _PART_IN.fullmatch(norm[part.end:whole.start])):
            named = {str(whole.code)}
    return named.pop() if len(named) == 1 else None


def _places(norm: str) -> int | None:
    # every wording of ``_WHOLE`` holds "whole", "integer" or 整: without them its search is spared
    if ("whole" in norm or "integer" in norm or "整" in norm) and _WHOLE.search(norm):
        return 0
    if "decimal" not in norm and "小数" not in norm:  # every wording of places names them
        return None
    for pattern, shift in _PLACES:
        match = pattern.search(norm)
        if match:
            value = _number(match.group(1))
            if value is not None:
                return max(value + shift, 0)
    return None


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)


def with_cagr_start(slots: ParsedSlots, years: int) -> ParsedSlots:
    """An N-year growth rate to one named fiscal year also looks up the year N years before it."""
    fiscal = [p for p in slots.periods if p.period_type == "FY"]
    if len(fiscal) != 1:
        return slots
    start = Period.fiscal_year(int(fiscal[0].period) - years)
    return replace(slots, periods=(start, *slots.periods))


def without_cues(slots: ParsedSlots, question: str) -> ParsedSlots:
    """``slots`` with the arithmetic words taken out of its unknown names (差し引いた額 is no company)."""
    norm = normalize_text(question)
    covered: set[int] = set()
    for pattern in _ALL:
        for match in pattern.finditer(norm):
            covered.update(range(match.start(), match.end()))
    names: list[str] = []
    for name in slots.unknown_names:
        word = normalize_text(name)
        at = norm.find(word)
        if at >= 0 and covered.issuperset(range(at, at + len(word))):
            continue  # the name is all cue words ("小数点以下第", split from its digit)
        left = word
        for pattern in _ALL:
            left = pattern.sub(" ", left)
        if left == word:
            names.append(name)
        else:
            names += [part for part in left.split() if len(part) >= 2 and part not in _QUESTION_ENDINGS]
    return replace(slots, unknown_names=tuple(names))


# Words of a change question the prior-period comparison answers (増減したか, 何ポイント変化したか):
# never a name, never a computation of their own here.
_CHANGE = LazyPattern(r"前期比|前年度比|増減|変化|增减|变化|増加|減少|增加|减少|改善|悪化|増収|減収|増益|減益|"
                     r"したか|しているか|何ポイント|ポイント|にかけて")
# "Round your answer to two decimal places": the instruction's own verb is no name either.
_ROUNDING = _cue("round", "rounded", "rounding")
# "遡及修正前", "as previously reported": the version of a figure asked (``reported_versions``), never a name
_ALL = (AVERAGE, RATIO, CAGR, SUBTRACT, ADD, ENTITY_GAP, EQUALS, PERCENT, _WHOLE, _YEARS, _CHANGE, _ROUNDING,
        EARLIER_VERSION, *(pattern for pattern, _ in _PLACES))
# What is left of a calculation question once its cue is taken out (いくらか, するか, 多少).
_QUESTION_ENDINGS = frozenset({"いくらか", "いくら", "するか", "しているか", "ですか", "ますか", "多少", "是否",
                               "几何"})
