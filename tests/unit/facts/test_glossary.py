"""The glossary normalises metric, entity, period and channel words in zh / en / ja."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind
from ragspine.facts.matching import alias_pattern, script_split_pattern, trie_pattern
from tests.support.glossary import default_glossary


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return default_glossary()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("FY2024", Period("FY", "2024")),
        ("fy 2024", Period("FY", "2024")),
        ("FY24", Period("FY", "2024")),
        ("ＦＹ２０２４", Period("FY", "2024")),
        ("2024年", Period("FY", "2024")),
        ("2024年度", Period("FY", "2024")),
        ("2024 fiscal year", Period("FY", "2024")),
        ("fiscal 2024", Period("FY", "2024")),
        ("2024财年", Period("FY", "2024")),
        ("2024", Period("FY", "2024")),
        ("Q3 2024", Period("Q", "2024Q3")),
        ("2024Q3", Period("Q", "2024Q3")),
        ("2024-Q3", Period("Q", "2024Q3")),
        ("2024年第三季度", Period("Q", "2024Q3")),
        ("2024年三季度", Period("Q", "2024Q3")),
        ("2024年Q3", Period("Q", "2024Q3")),
        ("2024年度第3四半期", Period("Q", "2024Q3")),
        ("third quarter of 2024", Period("Q", "2024Q3")),
    ],
)
def test_period_spellings_normalise_to_one_code(glossary: Glossary, raw: str, expected: Period) -> None:
    assert glossary.normalize_period(raw) == expected


@pytest.mark.parametrize("raw", [
    "FY2024", "FY24", "2024年", "2024年度", "2024 fiscal year", "fiscal 2024", "2024", "Q3 2024", "2024Q3",
    "2024年第三季度", "2024年度第3四半期", "third quarter of 2024", "second quarter of 2024"])
def test_each_spelling_is_found_inside_a_question_by_the_one_pass_scan(glossary: Glossary, raw: str) -> None:
    # The scan guards the period patterns with their first characters; this proves the guard
    # lets every spelling through, and that scan agrees with normalize_period.
    mentions = glossary.scan(f"Hong Kong revenue {raw} 是多少")
    periods = [m.period for m in mentions if m.kind is SlotKind.PERIOD]
    assert periods == [glossary.normalize_period(raw)]


@pytest.mark.parametrize("raw", ["2024年第五季度", "2024Q7", "FY20245", "next year", ""])
def test_malformed_periods_are_not_guessed(glossary: Glossary, raw: str) -> None:
    assert glossary.normalize_period(raw) is None


@pytest.mark.parametrize(
    ("kind", "raw", "code"),
    [
        (SlotKind.METRIC, "营业收入", "REVENUE"),
        (SlotKind.METRIC, "Revenue", "REVENUE"),
        (SlotKind.METRIC, "売上高", "REVENUE"),
        (SlotKind.METRIC, "毛利率", "GROSS_MARGIN"),
        (SlotKind.METRIC, "粗利", "GROSS_PROFIT"),
        (SlotKind.METRIC, "EBIT", "OPERATING_PROFIT"),
        (SlotKind.METRIC, "当期純利益", "NET_PROFIT"),
        (SlotKind.METRIC, "店舗数", "STORE_COUNT"),
        (SlotKind.ENTITY, "中国大陆", "ACME_CN"),
        (SlotKind.ENTITY, "Mainland China", "ACME_CN"),
        (SlotKind.ENTITY, "HK", "ACME_HK"),
        (SlotKind.ENTITY, "日本法人", "ACME_JP"),
        (SlotKind.ENTITY, "全社", "ACME_GROUP"),
        (SlotKind.CHANNEL, "线上", "ONLINE"),
        (SlotKind.CHANNEL, "オンライン", "ONLINE"),
        (SlotKind.CHANNEL, "in-store", "OFFLINE"),
        (SlotKind.CHANNEL, "TOTAL", "TOTAL"),
    ],
)
def test_aliases_in_three_languages_map_to_codes(glossary: Glossary, kind: SlotKind, raw: str, code: str) -> None:
    assert glossary.normalize(kind, raw) == code


def test_an_alias_of_another_kind_is_not_accepted(glossary: Glossary) -> None:
    assert glossary.normalize(SlotKind.ENTITY, "revenue") is None


class TestScan:
    def test_longest_alias_wins_so_margin_is_not_read_as_profit(self, glossary: Glossary) -> None:
        mentions = glossary.scan("2024年日本的毛利率是多少")
        assert [(m.kind, m.code) for m in mentions] == [
            (SlotKind.PERIOD, "FY2024"), (SlotKind.ENTITY, "ACME_JP"), (SlotKind.METRIC, "GROSS_MARGIN")]

    def test_store_count_is_not_read_as_the_offline_channel(self, glossary: Glossary) -> None:
        mentions = glossary.scan("2025年日本の店舗数")
        assert {m.code for m in mentions} == {"FY2025", "ACME_JP", "STORE_COUNT"}

    def test_latin_aliases_match_whole_words_only(self, glossary: Glossary) -> None:
        mentions = glossary.scan("Which records are ready for Hong Kong revenue?")
        assert {m.code for m in mentions} == {"ACME_HK", "REVENUE"}

    def test_a_bad_quarter_is_reported_with_its_original_text(self, glossary: Glossary) -> None:
        mentions = glossary.scan("香港FY20245营收")
        bad = [m for m in mentions if m.kind is SlotKind.PERIOD]
        assert bad and bad[0].code is None and bad[0].raw == "FY20245"


def test_an_ambiguous_alias_is_refused_at_load_time() -> None:
    raw = {
        "version": "t", "home_entity": "A", "default_channel": "TOTAL",
        "metrics": {"REVENUE": {"aliases": ["sales"]}, "SALES_COUNT": {"aliases": ["sales"]}},
        "entities": {"A": {}}, "channels": {"TOTAL": {}}, "periods": {"patterns": []},
    }
    with pytest.raises(ConfigurationError, match="ambiguous"):
        Glossary.from_mapping(raw)


def test_every_display_name_is_also_an_alias(glossary: Glossary) -> None:
    # A client that echoes a name the service showed (e.g. "ACME Group") must be understood.
    for kind, terms in glossary.terms.items():
        for code, term in terms.items():
            for name in term.names.values():
                assert glossary.normalize(kind, name) == code, (kind, name)


class TestTriePattern:
    """The prefix tree behind every alias regex, with its first-character guard."""

    WORDS = ("毛利", "毛利率", "revenue", "rev", "a-b", "q3", "净利润")

    def test_it_matches_exactly_its_words_longest_first(self) -> None:
        regex = re.compile(trie_pattern(self.WORDS))
        assert all(regex.fullmatch(word) for word in self.WORDS)
        assert regex.match("毛利率是").group() == "毛利率"  # type: ignore[union-attr]
        assert not any(regex.fullmatch(word) for word in ("毛", "re", "revenues", "b", "净利"))

    def test_the_guard_finds_the_same_spans_as_the_plain_tree(self) -> None:
        guarded = re.compile(trie_pattern(self.WORDS))
        plain = re.compile(guarded.pattern.split(")", 1)[1])  # drop the leading (?=[...]) lookahead
        text = "2024年毛利率与revenue及rev、a-b、q3净利润和毛利"
        assert guarded.pattern.startswith("(?=[")
        assert [m.span() for m in guarded.finditer(text)] == [m.span() for m in plain.finditer(text)]

    def test_an_unguarded_tree_is_the_plain_tree(self) -> None:
        guarded = trie_pattern(self.WORDS)
        assert trie_pattern(self.WORDS, guarded=False) == guarded.split(")", 1)[1]

    def test_an_empty_word_keeps_the_tree_unguarded(self) -> None:
        assert trie_pattern(["", "a"]) == "(?:a)?" and trie_pattern([]) == ""


@given(words=st.lists(st.text(alphabet="ab c-日本", min_size=1, max_size=5), min_size=1, max_size=6),
       text=st.text(alphabet="ab c-日本x", max_size=30))
def test_the_alias_guard_finds_the_same_spans_as_its_unguarded_parts(words: list[str], text: str) -> None:
    guarded = alias_pattern(words)
    if not any(word.isascii() or word[0] in "ab" for word in words):
        return  # no Latin or mixed alias: the tree's own guard is the only one
    plain = guarded[guarded.index("])(?:") + 5:-1]  # the parts without the leading lookahead
    assert [m.span() for m in re.finditer(guarded, text)] == [m.span() for m in re.finditer(plain, text)]


@given(words=st.lists(st.text(alphabet="ab %-日本の年", min_size=1, max_size=5), min_size=1, max_size=8),
       text=st.text(alphabet="ab %-日本の年x", max_size=30))
def test_the_script_split_tree_finds_the_same_spans_as_the_one_tree(words: list[str], text: str) -> None:
    split, one = re.compile(script_split_pattern(words)), re.compile(trie_pattern(words, guarded=False))
    assert [m.span() for m in split.finditer(text)] == [m.span() for m in one.finditer(text)]
    assert [bool(split.search(text, start)) for start in range(len(text))] == \
        [bool(one.search(text, start)) for start in range(len(text))]


class TestMixedScriptAliases:
    """An alias with a Latin start and another script (EBITDAマージン) beats its Latin prefix (EBITDA)."""

    ALIASES = ("ebitda", "ebitda margin", "ebitdaマージン", "ebitda利润率", "毛利率")

    @pytest.mark.parametrize(("text", "found"), [
        ("クリニック事業のebitdaマージンは", "ebitdaマージン"), ("诊所业务的ebitda利润率", "ebitda利润率"),
        ("clinics ebitda margin", "ebitda margin"), ("clinics ebitda fy2025", "ebitda"), ("日本の毛利率", "毛利率"),
    ])
    def test_the_longest_alias_wins(self, text: str, found: str) -> None:
        match = re.search(alias_pattern(self.ALIASES), text)
        assert match is not None and match.group() == found

    def test_a_mixed_alias_does_not_start_inside_a_latin_word(self) -> None:
        assert re.search(alias_pattern(self.ALIASES), "xebitdaマージン") is None


@given(text=st.text(alphabet="abcXYＦ２ 日本年", max_size=24),
       spans=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=5))
def test_leftover_blanks_the_union_of_the_spans_and_keeps_every_other_character(
        glossary: Glossary, text: str, spans: list[tuple[int, int]]) -> None:
    norm = unicodedata.normalize("NFKC", text).lower()
    spans = [(min(a, b, len(norm)), min(max(a, b), len(norm))) for a, b in spans]
    mentions = [Mention(SlotKind.METRIC, None, norm[a:b], a, b) for a, b in spans]
    blanked = {i for a, b in spans for i in range(a, b)}
    expected = "".join(" " if i in blanked else c for i, c in enumerate(norm))
    assert glossary.leftover(text, mentions) == expected
