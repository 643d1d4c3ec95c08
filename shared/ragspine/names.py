"""What a name may hold: space and document names, file names, tags and the other metadata strings of the
Gateway, and outside it n8n workflow names and Dify's ``user`` id.

A name is shown to people and agents, logged and put into file names and headers, so it must
be visible text: no control character (NUL, tab, line breaks, C1), no line or paragraph
separator, no bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069: they
make a name read differently from what it is), no Unicode tag character (U+E0000–U+E007F: they
spell hidden text after a visible name), and at least one visible character (a name of only spaces,
default-ignorable characters, zero-width ones included, other format characters of general category Cf
or private use characters cannot be told apart from another).
Marks such as U+200E/U+200F, joiners and variation selectors inside a name stay allowed:
right-to-left scripts and emoji need them.

The contract states the same rule as a regular expression (``NAME_PATTERN``), linear to match.
"""

from __future__ import annotations

import re

# (first, last) code point ranges.
CONTROLS = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029))
BIDI_CONTROLS = ((0x202A, 0x202E), (0x2066, 0x2069))
# Tag characters: invisible copies of ASCII that only serve to hide text ("Report" followed by tags spelling
# an instruction to an agent); refused anywhere in a name.
TAGS = ((0xE0000, 0xE007F),)
# Unicode's Default_Ignorable_Code_Point, complete (DerivedCoreProperties.txt of Unicode 16.0.0, unchanged
# since 14.0; tests/unit/knowledge/test_names.py checks it against the regex module's property table).
DEFAULT_IGNORABLE = ((0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# General category Cf (format characters), complete: most are default-ignorable, but not the interlinear
# annotation controls (U+FFF9–U+FFFB), the Egyptian hieroglyph format controls (U+13430–U+1343F) or the
# prepended concatenation marks (U+0600–U+0605, …), which draw nothing on their own either.
FORMAT = ((0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891),
          (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
          (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
          (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F))
# General category Co: private use characters have no agreed glyph, so they cannot be told apart either.
PRIVATE_USE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
# Spaces and blank characters that are not default-ignorable but show nothing either (all of category Zs, and
# U+2800, the blank braille pattern).
BLANKS = ((0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x202F, 0x202F), (0x205F, 0x205F),
          (0x2800, 0x2800), (0x3000, 0x3000))


def _without(ranges: tuple[tuple[int, int], ...], removed: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The code points of ``ranges`` not in ``removed``, as sorted, merged ranges."""
    points = {c for a, b in ranges for c in range(a, b + 1)} - {c for a, b in removed for c in range(a, b + 1)}
    merged: list[tuple[int, int]] = []
    for point in sorted(points):
        if merged and merged[-1][1] == point - 1:
            merged[-1] = (merged[-1][0], point)
        else:
            merged.append((point, point))
    return tuple(merged)


FORBIDDEN = CONTROLS + BIDI_CONTROLS + TAGS
# Allowed inside a name, never all of it.
INVISIBLE = _without(BLANKS + DEFAULT_IGNORABLE + FORMAT + PRIVATE_USE, FORBIDDEN)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    # BMP code points as \uXXXX (ECMA-262 and Python agree on it); others as the character itself, which both
    # read as one code point in a Unicode pattern (ECMA-262 has no \U escape, Python no \u{...}).
    return "".join(_point(a) if a == b else f"{_point(a)}-{_point(b)}" for a, b in ranges)


def _point(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)


_FORBIDDEN = _class(FORBIDDEN)
_INVISIBLE = _class(INVISIBLE)
# Leading invisible characters, then a visible one, then anything allowed: one way to match, no backtracking blow-up.
NAME_PATTERN = f"^[{_INVISIBLE}]*[^{_FORBIDDEN}{_INVISIBLE}][^{_FORBIDDEN}]*$"
_EXTENSIONS = ("pptx", "xlsx", "xlsm", "docx", "pdf", "md", "markdown", "html", "htm", "xhtml", "txt", "text")
_EXTENSION = "(" + "|".join("".join(f"[{c.lower()}{c.upper()}]" for c in e) for e in _EXTENSIONS) + ")"
# A file name is a name whose last visible character before the extension's dot is not a slash.
FILE_NAME_PATTERN = (f"^[{_INVISIBLE}]*([^{_FORBIDDEN}{_INVISIBLE}/]|[^{_FORBIDDEN}{_INVISIBLE}][^{_FORBIDDEN}]*"
                     f"[^{_FORBIDDEN}/])\\.{_EXTENSION}$")
RULE = ("visible text: no control characters (NUL, tab, line breaks), no bidirectional override or isolate "
        "characters (U+202A–U+202E, U+2066–U+2069), no tag characters (U+E0000–U+E007F), and at least one "
        "visible character: not only spaces, format characters (general category Cf), private use characters "
        "or zero-width (default-ignorable) characters")

_CONTROL = re.compile(f"[{_class(CONTROLS)}]")
_BIDI = re.compile(f"[{_class(BIDI_CONTROLS)}]")
_TAG = re.compile(f"[{_class(TAGS)}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_VISIBLE = re.compile(f"[^{_FORBIDDEN}{_INVISIBLE}]")


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name (a message saying how to fix it), or None when it can."""
    if _SURROGATE.search(text):
        return "must be UTF-8 text: it holds a lone UTF-16 surrogate"
    if _CONTROL.search(text):
        return "must not contain control characters (NUL, tab, line breaks): remove them"
    if _BIDI.search(text):
        return ("must not contain bidirectional override or isolate characters (U+202A–U+202E, U+2066–U+2069): "
                "remove them")
    if _TAG.search(text):
        return "must not contain Unicode tag characters (U+E0000–U+E007F, invisible text): remove them"
    if not _VISIBLE.search(text):
        return ("must contain a visible character, not only spaces, format, private use or zero-width "
                "characters")
    return None
