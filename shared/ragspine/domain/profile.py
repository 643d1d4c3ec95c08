"""The domain folder as the engine reads it: who the company is, and the merged screening configuration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragspine.config_loader import load_yaml
from ragspine.domain.files import DOMAIN, SCREENING, default_domain_dir, engine_config, read_file


@dataclass(frozen=True)
class DomainProfile:
    """``domain.yaml``: the company's and the assistant's names, the prompt wording, the sample documents."""

    folder: Path
    name: str
    company: Mapping[str, str]
    assistant: Mapping[str, str]
    system_prompt: str | None
    samples: Path | None
    sample_question: str | None

    def company_name(self, lang: str) -> str:
        """The company's name in ``lang`` (another language's when that one is not given)."""
        return _pick(self.company, lang)

    def assistant_name(self, lang: str) -> str:
        """The assistant's name in ``lang`` (another language's when that one is not given)."""
        return _pick(self.assistant, lang)


def _pick(names: Mapping[str, str], lang: str) -> str:
    return names.get(lang) or names.get("en") or next(iter(names.values()))


def load_profile(folder: Path) -> DomainProfile:
    """Read ``folder/domain.yaml``.

    Raises:
        ConfigurationError: the file is missing or invalid.
    """
    raw = read_file(folder / DOMAIN)
    samples = raw.get("samples")
    return DomainProfile(folder=folder, name=str(raw["name"]), company=dict(raw["company"]),
                         assistant=dict(raw["assistant"]), system_prompt=raw.get("system_prompt"),
                         samples=(folder / str(samples)).resolve() if samples else None,
                         sample_question=raw.get("sample_question"))


@lru_cache(maxsize=4)
def profile_of(folder: Path) -> DomainProfile:
    """The profile of the domain folder ``folder``, read once per process."""
    return load_profile(folder)


def screening_mapping(folder: Path | None = None) -> dict[str, Any]:
    """The engine's security rules joined with the domain's competitors, scope and replies.

    Injection, prompt-extraction and secret rules are the engine's (``config/screening.yaml``)
    and hold for every company; a domain's replies override the engine's, and ``{company}`` in
    any reply becomes the company's name in the reply's language.
    """
    folder = folder or default_domain_dir()
    engine = load_yaml(engine_config(SCREENING))
    domain = read_file(folder / SCREENING)
    profile = load_profile(folder)
    replies: dict[str, dict[str, str]] = {}
    for source in (engine.get("replies") or {}, domain.get("replies") or {}):
        for reason, texts in source.items():
            replies.setdefault(str(reason), {}).update(texts)
    filled = {reason: {lang: text.replace("{company}", profile.company_name(lang)) for lang, text in texts.items()}
              for reason, texts in replies.items()}
    return {**engine, "competitors": domain.get("competitors") or [],
            "scope": {"business_terms": [*(domain.get("scope") or {}).get("business_terms", []),
                                         *profile.company.values()],
                      "off_topic": (domain.get("scope") or {}).get("off_topic", [])},
            "replies": filled}
