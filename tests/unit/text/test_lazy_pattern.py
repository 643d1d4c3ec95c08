"""``LazyPattern``: compiled on first use, and then read exactly as the compiled pattern reads."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.lazy import LazyPattern, SourcedOnUse

# Patterns of the kinds the engine defers: cue alternations with lookarounds, groups, CJK words.
PATTERNS = [r"(?<![a-z])ratio of(?![a-z])|之比|に占める", r"(\d{1,2})\s+decimal\s+places?", r"保留\s*(\d)\s*位小数",
            r"weighted[\s-]*$", r"前期比|増減|变化", r"(?<=[a-z])[-_]+(?=[a-z])", r"(^|[万亿兆])(?=[百千])"]
FLAGS = st.sampled_from([0, re.IGNORECASE])
TEXTS = st.text(alphabet=st.sampled_from(list("ratio of 之比に占める12 decimal places保留位小数weighted-前期比増減变化xR_万百")),
                max_size=40)


def test_a_pattern_is_compiled_only_when_first_used() -> None:
    # GIVEN a lazy pattern nothing has read
    pattern = LazyPattern(r"\d+")
    # THEN it is not compiled; WHEN it is first searched, THEN it is, and stays the same object after
    assert pattern._compiled is None
    assert pattern.search("FY2024") is not None
    assert pattern._compiled is not None
    assert pattern.compiled is pattern.compiled


@given(source=st.sampled_from(PATTERNS), flags=FLAGS, text=TEXTS, pos=st.integers(min_value=0, max_value=45))
def test_every_read_equals_the_compiled_patterns(source: str, flags: int, text: str, pos: int) -> None:
    # GIVEN a lazy pattern and the same pattern compiled, with the same flags
    lazy, compiled = LazyPattern(source, flags), re.compile(source, flags)
    # THEN each read gives what the compiled pattern gives
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.findall(text) == compiled.findall(text)
    assert lazy.sub(" ", text) == compiled.sub(" ", text)
    assert _span(lazy.match(text)) == _span(compiled.match(text))
    assert _span(lazy.search(text)) == _span(compiled.search(text))
    assert _span(lazy.fullmatch(text)) == _span(compiled.fullmatch(text))
    assert lazy.split(text) == compiled.split(text)
    # from a position, and with a function making each replacement
    assert _span(lazy.match(text, pos)) == _span(compiled.match(text, pos))
    assert _span(lazy.search(text, pos)) == _span(compiled.search(text, pos))
    assert lazy.sub(_bracketed, text) == compiled.sub(_bracketed, text)


def _bracketed(match: re.Match[str]) -> str:
    return f"[{match.group()}]"


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return match.span() if match else None


def test_a_name_no_pattern_has_is_an_attribute_error_before_and_after_the_first_read() -> None:
    pattern = LazyPattern(r"\d+")
    with pytest.raises(AttributeError, match="serch"):
        pattern.serch  # type: ignore[attr-defined]  # noqa: B018
    assert pattern._compiled is None  # a misspelt read compiles nothing
    assert pattern.findall("FY2024 and 2025") == ["2024", "2025"]
    with pytest.raises(AttributeError, match="serch"):
        pattern.serch  # type: ignore[attr-defined]  # noqa: B018


def test_a_pattern_sourced_on_use_builds_its_source_once_and_reads_it_before_any_search() -> None:
    # GIVEN a pattern whose source is built by a function
    built: list[int] = []

    def source() -> str:
        built.append(1)
        return r"\d{4}"

    pattern = SourcedOnUse(source)
    # THEN nothing is built until it is read; its source reads as built, and a search uses that source
    assert built == []
    assert pattern.pattern == r"\d{4}" and repr(pattern) == r"LazyPattern('\\d{4}')"
    assert pattern.search("FY2024") is not None and pattern.fullmatch("24") is None
    assert built == [1]
