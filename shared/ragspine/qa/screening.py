"""Deterministic security and scope screening, before anything else runs (no LLM)."""

from __future__ import annotations

import enum
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.config_loader import load_yaml
from ragspine.domain.profile import screening_mapping
from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import Glossary
from ragspine.facts.matching import alias_pattern, ascii_alias_pattern, trie_pattern
from ragspine.lazy import LazyModule, LazyPattern, SourcedOnUse
from ragspine.qa.language import detect_language
from ragspine.qa.persona import PersonaScreen

if TYPE_CHECKING:
    from ragspine.qa import refusal
    from ragspine.qa.refusal import Refusal
else:
    # Loaded when a question is refused: one screened and let through never builds a refusal.
    refusal = LazyModule("ragspine.qa.refusal")

_ZERO_WIDTH = LazyPattern(r"[\u200b-\u200f\u2060\ufeff]")  # compiled for the first text holding a format character
_SPACES = LazyPattern(r"\s+")
# Look-alikes NFKC keeps apart: curly quotes ("you’re" must match "you're") and the Cyrillic
# and Greek small letters that pass for Latin ones ("іgnоrе"). Applied after lower-casing.
_FOLD = str.maketrans({
    **dict.fromkeys("’‘ʼ`´", "'"), **dict.fromkeys("“”„«»", '"'),
    **dict(zip("асеорхуіјѕԁԛԝ", "aceopxyijsdqw", strict=True)),
    **dict(zip("αεικνορτυχ", "aeikvoptux", strict=True)),
})
# Any character ``_FOLD`` changes: without one (most questions) the text is not read through the table,
# which costs a dictionary look-up per character.
_FOLDABLE = LazyPattern(f"[{re.escape(''.join(map(chr, _FOLD)))}]")


class RefusalReason(enum.StrEnum):
    """Why a question was refused (the reason code callers see)."""

    PROMPT_INJECTION = "PROMPT_INJECTION"
    PROMPT_EXTRACTION = "PROMPT_EXTRACTION"
    SECRET_REQUEST = "SECRET_REQUEST"
    COMPETITOR = "COMPETITOR"
    OUT_OF_SCOPE = "OUT_OF_SCOPE"


def screening_text(text: str) -> str:
    """The form rules are matched in: NFKC, lower case, no zero-width characters, single spaces."""
    if text.isascii():  # NFKC keeps ASCII as it is; zero-width and look-alike characters are not ASCII
        text = text.lower()
    else:
        text = unicodedata.normalize("NFKC", text)
        if not text.isprintable():  # zero-width characters are format characters: a printable text holds none
            text = _ZERO_WIDTH.sub("", text)
        text = text.lower()
        if _FOLDABLE.search(text):
            text = text.translate(_FOLD)
    # Every whitespace character but the space is unprintable: no whitespace but single spaces, nothing to squeeze
    if text.isprintable() and "  " not in text:
        return text.strip()
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class ScreeningPolicy:
    """Refusal rules: the engine's ``config/screening.yaml`` and the domain folder's ``screening.yaml``.

    Every rule list is compiled into one alternation (a named group per pattern), so a
    question is screened in a handful of regex passes however many rules there are.
    ``suspects`` joins the triggers, competitors and off-topic words: when it finds none of
    them, which is most questions, one pass replaces three. ``suspect_hints`` is its cheaper
    first test: a piece of every such word (see ``_hint_pieces``), so a question it finds
    nothing in holds none of the words and ``suspects`` is not run. Each alternation is compiled on
    its first use (most questions need ``suspect_hints`` and ``business_terms`` alone); ``compiled``
    compiles them all, where the configuration is checked. In ASCII text, where no word of another script
    occurs, ``ascii_suspect_hints`` (the ASCII pieces) and ``ascii_business_terms`` (see
    ``ascii_alias_pattern``) stand for ``suspect_hints`` and ``business_terms`` at a fraction of the cost.
    """

    version: str
    triggers: LazyPattern
    rules: LazyPattern
    rule_names: Mapping[str, tuple[RefusalReason, str]]
    competitors: LazyPattern
    business_terms: LazyPattern
    off_topic: LazyPattern
    replies: Mapping[RefusalReason, Mapping[str, str]]
    suspects: LazyPattern
    suspect_hints: LazyPattern
    persona: PersonaScreen
    ascii_suspect_hints: LazyPattern
    ascii_business_terms: LazyPattern

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], *, glossary: Glossary) -> ScreeningPolicy:
        """Build the policy; every glossary alias also counts as a business term."""
        try:
            names: dict[str, tuple[RefusalReason, str]] = {}
            branches: list[str] = []
            for rule in raw["rules"]:
                for index, pattern in enumerate(rule["patterns"]):
                    group = f"g{len(branches)}"
                    names[group] = (RefusalReason(rule["reason"]), f"{rule['reason']}#{index}")
                    branches.append(f"(?P<{group}>{pattern})")
            scope = raw["scope"]
            terms = {screening_text(t) for t in scope["business_terms"]} | set(glossary.aliases)
            persona = PersonaScreen.from_mapping(raw["persona"])
            trigger_words = [screening_text(t) for t in raw["triggers"]]
            competitor_words = [screening_text(c) for c in raw["competitors"]]
            off_topic_words = [screening_text(w) for w in scope["off_topic"]]
            suspect_words = [*trigger_words, *competitor_words, *off_topic_words]
            triggers = _trigger_pattern(trigger_words)
            competitors = alias_pattern(competitor_words)
            off_topic = alias_pattern(off_topic_words)
            hints = _hint_pieces(suspect_words, common=Counter("".join(terms)))
            policy = cls(
                version=str(raw["version"]),
                triggers=LazyPattern(triggers),
                rules=LazyPattern("|".join(branches)),
                rule_names=names,
                competitors=LazyPattern(competitors),
                business_terms=LazyPattern(alias_pattern(terms)),
                off_topic=LazyPattern(off_topic),
                replies={RefusalReason(k): dict(v) for k, v in raw["replies"].items()},
                suspects=LazyPattern(_first_of(suspect_words) + f"(?:{triggers}|{competitors}|{off_topic})"),
                suspect_hints=LazyPattern(_piece_tree(hints)),
                persona=persona,
                ascii_suspect_hints=LazyPattern(_piece_tree({piece for piece in hints if piece.isascii()})),
                ascii_business_terms=SourcedOnUse(lambda: ascii_alias_pattern(terms)),
            )
        except (KeyError, TypeError, ValueError, re.error) as exc:
            raise ConfigurationError(f"screening configuration is malformed: {exc!r}") from exc
        missing = [r for r in RefusalReason if r not in policy.replies]
        if missing:
            raise ConfigurationError(f"screening configuration has no reply for {', '.join(missing)}")
        return policy

    def compiled(self) -> ScreeningPolicy:
        """This policy with every regex compiled now (``ragspine domain check``; a service compiles each
        on first use).

        Raises:
            ConfigurationError: a rule or cue is not a valid regex.
        """
        patterns = (self.triggers, self.rules, self.competitors, self.business_terms, self.off_topic,
                    self.suspects, self.suspect_hints, self.ascii_suspect_hints, self.ascii_business_terms,
                    *self.persona.patterns())
        for pattern in patterns:
            try:
                pattern.compiled  # noqa: B018 (compiling is the point)
            except re.error as exc:
                raise ConfigurationError(f"screening configuration holds an invalid regex: {exc} in "
                                         f"{pattern.pattern[:80]!r}") from exc
        return self

    @classmethod
    def from_file(cls, path: Path, *, glossary: Glossary) -> ScreeningPolicy:
        """Load the policy from a YAML file."""
        return cls.from_mapping(load_yaml(path), glossary=glossary)

    @classmethod
    def default(cls, *, glossary: Glossary, domain: Path | None = None) -> ScreeningPolicy:
        """The engine's security rules with the domain folder's competitors, scope and replies
        (``domain``, default the shipped demo domain)."""
        return cls.from_mapping(screening_mapping(domain), glossary=glossary)

    def screen(self, question: str) -> Refusal | None:
        """Return a refusal when the question must not reach any channel, else None.

        Order: injection, prompt extraction and secrets first (whatever else the question
        says), then persona overrides (cue families, see ``PersonaScreen``), then competitors,
        then scope (an off-topic subject, or no business term).
        """
        text = screening_text(question)
        judged = self.persona.worth_judging(text)
        if not judged and not (self._hinted(text) and self.suspects.search(text)):
            return None if self._holds_business_term(text) else self._refuse(
                RefusalReason.OUT_OF_SCOPE, "NO_BUSINESS_TERM", question)
        match = self.rules.search(text) if self.triggers.search(text) else None
        if match and match.lastgroup:
            reason, rule = self.rule_names[match.lastgroup]
            return self._refuse(reason, rule, question)
        verdict = self.persona.judge(text) if judged else None
        if verdict is not None:
            return self._refuse(RefusalReason.PROMPT_INJECTION, verdict.rule, question)
        match = self.competitors.search(text)
        if match:
            return self._refuse(RefusalReason.COMPETITOR, f"COMPETITOR:{match.group()}", question)
        match = self.off_topic.search(text)
        if match:
            return self._refuse(RefusalReason.OUT_OF_SCOPE, f"OFF_TOPIC:{match.group()}", question)
        if not self._holds_business_term(text):
            return self._refuse(RefusalReason.OUT_OF_SCOPE, "NO_BUSINESS_TERM", question)
        return None

    def _hinted(self, text: str) -> bool:
        """Whether ``text`` (in screening form) holds a suspect hint."""
        return (self.ascii_suspect_hints if text.isascii() else self.suspect_hints).search(text) is not None

    def _holds_business_term(self, text: str) -> bool:
        """Whether ``text`` (in screening form) holds a business term."""
        if text.isascii():
            return self.ascii_business_terms.search(" " + text) is not None
        return self.business_terms.search(text) is not None

    def _refuse(self, reason: RefusalReason, rule: str, question: str) -> Refusal:
        replies = self.replies[reason]
        return refusal.Refusal(reason, rule, replies.get(detect_language(question).value) or replies["en"])


def _trigger_pattern(words: Iterable[str]) -> str:
    """Triggers match anywhere (no word boundaries): "ignore" must fire inside "请ignore之前"."""
    return trie_pattern(set(words)) or "(?!)"


def _first_of(words: Iterable[str]) -> str:
    """A lookahead on the first characters of ``words``: one class test rejects a position for every
    joined pattern at once (without it each pattern's own guard is tried in turn)."""
    firsts = {word[:1] for word in words}
    if "" in firsts or not firsts:
        return ""
    return f"(?=[{''.join(re.escape(char) for char in sorted(firsts))}])"


def _piece_tree(pieces: set[str]) -> str:
    """A regex finding any of ``pieces`` (none: nowhere), unguarded (see ``_hint_pieces``)."""
    return trie_pattern(pieces, guarded=False) if pieces else "(?!)"


def _hint_pieces(words: Iterable[str], *, common: Counter[str]) -> set[str]:
    """A piece of each of ``words``, found wherever the word occurs, the pieces opening on few characters.

    A word's piece is its tail (three characters at least, or the whole of a shorter word) from one
    of a few characters chosen to cover every word: greedily, the one rarest in ``common`` (the
    business vocabulary: what questions in scope are written in) for the number of words not yet
    covered that could open a piece on it. The pieces' prefix tree has no guard, so ``re`` skips in
    C every position whose character opens no piece: on a question in scope it stops at few places
    and finds nothing, and the full pattern is not run. A word holds its piece, so a text holding
    none of the pieces holds none of the words.
    """
    words = set(words)
    if "" in words or not words:
        return set(words)  # an empty word is found anywhere (its piece is itself); no word is found nowhere
    # where each word's pieces may open: any character with two more after it (or the first of a short word)
    heads = {word: word[:max(1, len(word) - 2)] for word in words}
    holders: dict[str, set[str]] = {}  # an opening character -> the words not yet covered that hold it
    for word, opening in heads.items():
        for char in opening:
            holders.setdefault(char, set()).add(word)
    chosen: set[str] = set()
    for opening in heads.values():  # a word sharing no opening with another takes its rarest at once
        if all(len(holders[char]) == 1 for char in opening):
            chosen.add(min(opening, key=lambda char: (common[char], char)))
            for char in set(opening):
                del holders[char]
    while holders:
        best = min(holders, key=lambda char: ((common[char] + 1) / len(holders[char]), char))
        chosen.add(best)
        for word in holders.pop(best):
            for char in set(heads[word]) - {best}:
                holders[char].discard(word)
                if not holders[char]:
                    del holders[char]
    return {word[next(at for at, char in enumerate(opening) if char in chosen):] for word, opening in heads.items()}
