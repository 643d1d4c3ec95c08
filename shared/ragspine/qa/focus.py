"""The passages a question is asked again from, after a reply that only said the question back.

Shown five passages (two paragraphs of one section often reach the model as the same section
text under two numbers), a 1.5B model answered how-questions by saying them back, and said the
same words back when asked again over the same passages with a line naming what was missing: the
added line did not change its first tokens. Asked again over fewer passages, the prompt is another
one: the paragraph sharing the most topic words with the question (its content words, the subject
and the asking left out) comes first, then the passages the reply cited (the model took them for
the answer), each shown text once, at most ``MAX_FOCUS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragspine.qa.evidence import Evidence
from ragspine.qa.on_topic import topic_words
from ragspine.qa.support import content_words

MAX_FOCUS = 2


def focus(question: str, cited: Sequence[int], evidence: Sequence[Evidence], *,
          subject: Callable[[str], str] = str) -> tuple[int, ...]:
    """The 0-based passages of ``evidence`` to ask from again, best first; () when none stands out.

    Args:
        question: the user's question.
        cited: the passages the reply that said the question back cited (0-based).
        evidence: the passages the first prompt gave.
        subject: blanks the question's subject out of a text (the entities and periods it names).
    """
    topic = topic_words(question, subject=subject)
    held = [len(content_words(subject(item.text)) & topic) for item in evidence]
    best = max(range(len(evidence)), key=lambda i: held[i], default=None)  # the first of equals
    lead = [best] if best is not None and held[best] > 0 else []
    chosen: list[int] = []
    shown: set[str] = set()
    for i in (*lead, *cited):
        text = evidence[i].context or evidence[i].text
        if text not in shown:
            shown.add(text)
            chosen.append(i)
    return tuple(chosen[:MAX_FOCUS])
