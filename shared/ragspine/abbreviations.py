"""Abbreviations whose period does not end a sentence: "Hoshizora Seiki Co., Ltd. - Key figures".

``NO_ABBREVIATION_BEFORE`` is a run of negative lookbehinds a sentence splitter puts just before
its ``\\.``; ``NO_ABBREVIATION_AT`` the same, put just after it (for a split between the period and
the space). Company forms and titles only: words like "etc." or "no." end sentences as often as not.
"""

from __future__ import annotations

_WORDS = ("Co", "Ltd", "Inc", "Corp", "Plc", "Bros", "Mr", "Mrs", "Ms", "Dr", "vs", "e.g", "i.e")

NO_ABBREVIATION_BEFORE = "".join(rf"(?<!\b{word.replace('.', chr(92) + '.')})" for word in _WORDS)
NO_ABBREVIATION_AT = "".join(rf"(?<!\b{word.replace('.', chr(92) + '.')}\.)" for word in _WORDS)
