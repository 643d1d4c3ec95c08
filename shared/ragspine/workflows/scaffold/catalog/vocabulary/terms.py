"""The vocabulary types the generator combines: domains, tasks and output variants."""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.workflows.scaffold.catalog.model import Localized, RecipeInput


@dataclass(frozen=True, slots=True)
class Domain:
    """A business area: its name, the documents it handles and its search keywords."""

    key: str
    name: Localized
    subject: Localized
    role: str
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Task:
    """A job an LLM step does.

    ``title`` holds a ``{d}`` slot for the domain name and ``summary`` a ``{s}`` slot for the
    domain's subject. ``template`` names the curated template a task reuses instead of the
    fixed start→llm→end graph (knowledge Q&A needs a retrieval node).
    """

    key: str
    title: Localized
    summary: Localized
    keywords: tuple[str, ...]
    instruction: str
    inputs: tuple[RecipeInput, ...]
    user_prompt: str
    output: str
    json_keys: tuple[str, ...]
    template: str | None = None


@dataclass(frozen=True, slots=True)
class Variant:
    """An output style: the title suffix, a sentence ending and a prompt instruction."""

    key: str
    name: Localized
    phrase: Localized
    instruction: str
    keywords: tuple[str, ...]
