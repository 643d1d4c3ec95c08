"""A chat message and a model's reply: built when a model is asked, which a figure read from the facts never does."""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.llm.ports import Role


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's reply and the model that produced it."""

    text: str
    model: str
