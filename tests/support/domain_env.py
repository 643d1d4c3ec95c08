"""Point the service (settings and services caches included) at a domain folder and a data folder, and make one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ragspine.domain import glossary_file
from ragspine.settings import get_settings
from tests.support.process_caches import close_services

if TYPE_CHECKING:
    from ragspine.bootstrap import Services
    from ragspine.qa.result import AnswerStatus


def point_at(patch: pytest.MonkeyPatch, domain_dir: Path, data: Path, *, today: str = "2025-09-15") -> None:
    """Embedded backend, no embedder, no FAQ file, a fixed today; the caches are cleared so the next call reads it."""
    for name, value in {"RAGSPINE_DOMAIN_DIR": str(domain_dir), "RAGSPINE_DATA_DIR": str(data), "RAGSPINE_ENV": "test",
                        "RAGSPINE_EMBEDDER": "none", "RAGSPINE_TODAY": today}.items():
        patch.setenv(name, value)
    patch.delenv("RAGSPINE_BACKEND", raising=False)
    patch.delenv("RAGSPINE_FAQ_PATH", raising=False)
    get_settings.cache_clear()
    close_services()


def reread_domain() -> None:
    """As a new process would: the settings, the services and the domain's glossary read again."""
    get_settings.cache_clear()
    close_services()
    glossary_file.glossary_of.cache_clear()


def serving_domain(patch: pytest.MonkeyPatch, folder: Path) -> Iterator[Path]:
    """A fixture's body: the service pointed at the domain ``folder`` (read anew), forgotten after the test."""
    patch.setenv("RAGSPINE_DOMAIN_DIR", str(folder))
    reread_domain()
    try:
        yield folder
    finally:  # as in ``ingested_in_fresh_domain``
        reread_domain()


def ingest_into_finance_domain(root: Path, documents: dict[str, str], *, today: str) -> tuple[Path, Path]:
    """``ragspine domain init`` under ``root`` plus ``include: [finance]`` (checked), then ``ragspine ingest`` of
    ``documents`` (name -> text); the domain and data folders, with the services the CLI built closed."""
    from typer.testing import CliRunner

    from ragspine.cli import app

    runner = CliRunner()
    folder, data, docs = root / "domain", root / "data", root / "docs"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    domain = folder / "domain.yaml"
    domain.write_text(domain.read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    checked = runner.invoke(app, ["domain", "check", str(folder)])
    assert checked.exit_code == 0, checked.output
    docs.mkdir()
    for name, text in documents.items():
        (docs / name).write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        point_at(patch, folder, data, today=today)
        try:
            result = runner.invoke(app, ["ingest", str(docs)], env={"COLUMNS": "200"})
        finally:
            get_settings.cache_clear()
            close_services()
    assert result.exit_code == 0, result.output
    return folder, data


def pointed_services(patch: pytest.MonkeyPatch, folder: Path, data: Path, *, today: str) -> Iterator[Services]:
    """A fixture's body: the process's services for ``folder`` and ``data``, closed after the test."""
    from ragspine.bootstrap import get_services

    point_at(patch, folder, data, today=today)
    try:
        yield get_services()
    finally:  # as in ``ingested_in_fresh_domain``: never leave the settings cached on this folder
        get_settings.cache_clear()
        close_services()


def ingested_in_fresh_domain(patch: pytest.MonkeyPatch, root: Path, documents: dict[str, str]) -> Iterator[None]:
    """A fixture's body: a domain folder from ``ragspine domain init`` served, ``documents`` (name -> text) written
    under ``root`` and ingested with ``ragspine ingest`` into a data folder of its own under ``root``, BM25 only;
    the settings and services forgotten after the test."""
    from typer.testing import CliRunner

    from ragspine.cli import app

    runner = CliRunner()
    folder = root / "fresh"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    patch.setenv("RAGSPINE_DOMAIN_DIR", str(folder))
    patch.setenv("RAGSPINE_DATA_DIR", str(root / "data"))
    patch.setenv("RAGSPINE_EMBEDDER", "none")
    patch.delenv("RAGSPINE_BACKEND", raising=False)
    get_settings.cache_clear()
    close_services()
    try:
        for name, text in documents.items():
            (root / name).write_text(text, encoding="utf-8")
        result = runner.invoke(app, ["ingest", *(str(root / name) for name in documents)], env={"COLUMNS": "240"})
        assert result.exit_code == 0, result.output
        close_services()
        yield
    finally:
        # Also when a check fails inside ``for _ in ingested_in_fresh_domain(...)`` (the loop is left, the
        # generator closed): the cached settings would keep serving this domain to every later test.
        get_settings.cache_clear()
        close_services()


def ingested_for_module(factory: pytest.TempPathFactory, name: str, documents: dict[str, str]) -> Iterator[None]:
    """A module-scoped fixture's body: ``ingested_in_fresh_domain`` under a new temporary folder named ``name``."""
    with pytest.MonkeyPatch.context() as patch:
        yield from ingested_in_fresh_domain(patch, factory.mktemp(name), documents)


def service_answer(question: str) -> tuple[str, AnswerStatus]:
    """The answer and status ``answer_question`` gives through the process's services."""
    from ragspine.bootstrap import get_services
    from ragspine.qa.answer import answer_question

    result = answer_question(question, qa=get_services().qa)
    return result.answer, result.status


def rows_read() -> dict[str, tuple[str, float, str]]:
    """Every figure the process's store holds under a row's own words (``2022 – 2026: ground leases``), by that
    name: its period type, value and locator."""
    from ragspine.bootstrap import get_services
    from ragspine.facts.open_vocabulary import label_of

    store = get_services().facts
    return {label_of(f.metric_code): (f.period_type, f.value, f.source_locator)
            for metric, entity in store.open_codes() for f in store.find(metric_code=metric, entity=entity)}


def cli_answer(question: str) -> str:
    """What ``ragspine ask QUESTION`` prints."""
    from typer.testing import CliRunner

    from ragspine.cli import app

    return CliRunner().invoke(app, ["ask", question], env={"COLUMNS": "240"}).output
