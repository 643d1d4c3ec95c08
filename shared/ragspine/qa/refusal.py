"""What a refused question carries: the refusal (reason, rule, reply) and the persona screen's verdict.

Built only when a question is refused or judged a persona override (``qa.screening`` and ``qa.persona``
load this module then): apart from them so that a question screened and let through does not create
their classes at a cold start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.qa.screening import RefusalReason


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused question: the reason code, the rule that matched and the polite reply."""

    reason: RefusalReason
    rule: str
    reply: str


@dataclass(frozen=True, slots=True)
class PersonaVerdict:
    """Why a text was judged a persona override: its score and what contributed, in order."""

    score: int
    families: tuple[str, ...]

    @property
    def rule(self) -> str:
        """The rule name callers see, e.g. ``PERSONA_OVERRIDE:override+persona``."""
        return "PERSONA_OVERRIDE:" + "+".join(self.families)
