"""What a name may hold: space and document names, file names, tags and the other metadata strings.

A name is shown to people and agents, logged and put into file names and headers, so it must
be visible text: no control character (NUL, tab, line breaks, C1), no line or paragraph
separator, no bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069: they
make a name read differently from what it is), and at least one visible character (a name of
only spaces or zero-width characters cannot be told apart from another). Marks such as
U+200E/U+200F and joiners inside a name stay allowed: right-to-left scripts and emoji need them.

The contract states the same rule as a regular expression (``NAME_PATTERN``), linear to match.
"""

from __future__ import annotations

import re

# (first, last) code point ranges.
CONTROLS = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029))
BIDI_CONTROLS = ((0x202A, 0x202E), (0x2066, 0x2069))
# Spaces, zero-width and other default-ignorable characters: allowed inside a name, never all of it.
INVISIBLE = ((0x20, 0x20), (0xA0, 0xA0), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160),
             (0x1680, 0x1680), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2000, 0x200F), (0x202F, 0x202F),
             (0x205F, 0x2065), (0x206A, 0x206F), (0x2800, 0x2800), (0x3000, 0x3000), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8))


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


_FORBIDDEN = _class(CONTROLS + BIDI_CONTROLS)
_INVISIBLE = _class(INVISIBLE)
# Leading invisible characters, then a visible one, then anything allowed: one way to match, no backtracking blow-up.
NAME_PATTERN = f"^[{_INVISIBLE}]*[^{_FORBIDDEN}{_INVISIBLE}][^{_FORBIDDEN}]*$"
_EXTENSIONS = ("pptx", "xlsx", "xlsm", "docx", "pdf", "md", "markdown", "html", "htm", "xhtml", "txt", "text")
_EXTENSION = "(" + "|".join("".join(f"[{c.lower()}{c.upper()}]" for c in e) for e in _EXTENSIONS) + ")"
# A file name is a name whose last visible character before the extension's dot is not a slash.
FILE_NAME_PATTERN = (f"^[{_INVISIBLE}]*([^{_FORBIDDEN}{_INVISIBLE}/]|[^{_FORBIDDEN}{_INVISIBLE}][^{_FORBIDDEN}]*"
                     f"[^{_FORBIDDEN}/])\\.{_EXTENSION}$")
RULE = ("visible text: no control characters (NUL, tab, line breaks), no bidirectional override or isolate "
        "characters (U+202A–U+202E, U+2066–U+2069), and not only spaces or zero-width characters")

_CONTROL = re.compile(f"[{_class(CONTROLS)}]")
_BIDI = re.compile(f"[{_class(BIDI_CONTROLS)}]")
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
    if not _VISIBLE.search(text):
        return "must contain a visible character, not only spaces or zero-width characters"
    return None
