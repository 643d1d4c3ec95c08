"""Every interface locale has every key, and every key the page uses exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ragspine

WEB = Path(ragspine.__file__).parent / "web"
LOCALES = ("en", "zh", "ja")


def _strings(locale: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "locales" / f"{locale}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("locale", LOCALES)
def test_every_locale_has_the_same_keys_and_placeholders(locale: str) -> None:
    reference, strings = _strings("en"), _strings(locale)
    assert set(strings) == set(reference)
    for key, text in reference.items():
        assert set(re.findall(r"\{(\w+)\}", strings[key])) == set(re.findall(r"\{(\w+)\}", text)), key
        assert strings[key].strip(), key


def test_every_key_the_page_uses_is_in_the_locales() -> None:
    used = set()
    for path in [*WEB.glob("*.js"), *WEB.glob("*.html")]:
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\("([\w.]+)\"""", source)) | set(re.findall(r'data-i18n="([\w.]+)"', source))
    # Keys built from the answer's route, status, narrative outcome and number kind.
    from ragspine.qa.result import AnswerStatus, NarrativeKind, Route

    used |= {f"route.{r.value}" for r in Route} | {f"status.{s.value}" for s in AnswerStatus}
    used |= {f"narrative.{k.value}" for k in NarrativeKind}
    used |= {f"kind.{k}" for k in ("fact", "computed", "quoted", "unverified")}
    from ragspine.feedback.store import FeedbackReason

    used |= {f"reason.{r.value}" for r in FeedbackReason}
    assert used - set(_strings("en")) == set()
