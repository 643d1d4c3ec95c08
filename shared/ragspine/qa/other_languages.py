"""A question written in a language the service does not read (German, French, Spanish), said as such.

Questions are read in Chinese, English and Japanese. "Wie hoch waren die Umsatzerlöse im GJ
2024/25?" read as English leaves its words unread, and the first capitalised ones ("Wie",
"Quel") would be asked back as an unknown company. A Latin-script question holding two or more
function words of one of these languages and not one English function word is that language: the
answer says so instead of naming an entity the question never named. Only words that are not
English are listed ("was", "die" as a German article are left out where English writes them too).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MIN_FOREIGN_WORDS = 2  # one word may be a name ("Umsatz" as a product); two function words are a sentence
_WORDS: Mapping[str, frozenset[str]] = MappingProxyType({
    "German": frozenset({"wie", "hoch", "waren", "ist", "sind", "der", "das", "den", "dem", "des", "im", "und",
                         "oder", "welche", "welcher", "welches", "wurde", "wurden", "betrug", "betrugen", "zum",
                         "zur", "vom", "für", "über", "geschäftsjahr", "höhe", "viel"}),
    "French": frozenset({"quel", "quelle", "quels", "quelles", "était", "étaient", "est", "le", "la", "les", "du",
                         "des", "au", "aux", "et", "ou", "pour", "dans", "sur", "combien", "exercice", "chiffre",
                         "affaires"}),
    "Spanish": frozenset({"cuál", "cuáles", "cuánto", "cuánta", "fue", "fueron", "el", "los", "las", "del", "es",
                          "son", "y", "en", "ejercicio", "ingresos"}),
})
_ENGLISH = frozenset({"the", "what", "was", "were", "is", "are", "of", "in", "how", "much", "many", "did", "does",
                      "for", "to", "and", "by", "from", "which", "between", "with", "a", "an", "on", "at"})
NOT_READ = ("The question reads as {language} ({words}): questions are read in Chinese, English and Japanese, "
            "so it was not answered. Please ask it in one of them.")


def other_language(question: str) -> tuple[str, tuple[str, ...]] | None:
    """The language a Latin-script question is written in when it is none the service reads, with the words
    that say so; None for Chinese, English, Japanese and anything not clearly one language."""
    if any("\u3040" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" for char in question):
        return None  # kana or Han: Japanese or Chinese
    words = "".join(char if char.isalpha() else " " for char in question.lower()).split()
    if any(word in _ENGLISH for word in words):
        return None
    found = {language: tuple(dict.fromkeys(w for w in words if w in own)) for language, own in _WORDS.items()}
    best = max(found, key=lambda language: len(found[language]))
    tied = [language for language, hits in found.items() if len(hits) == len(found[best])]
    if not words or len(found[best]) < MIN_FOREIGN_WORDS or len(tied) > 1:
        return None
    return best, found[best]


def render_other_language(language: str, words: tuple[str, ...]) -> str:
    """The reply (in English: the question is in Latin script) naming the language and the words that say so."""
    return NOT_READ.format(language=language, words=", ".join(f"“{word}”" for word in words[:3]))
