"""``ragspine ingest`` with the vector cache: a passage already embedded by the same model is never embedded again,
whether the file is re-ingested, edited or its index rebuilt."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine import bootstrap
from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.settings import Settings
from tests.fakes.hashing_embedder import HashingEmbedder
from tests.support.process_caches import close_services

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


class CountingEmbedder(HashingEmbedder):
    """The deterministic test embedder, recording every text the model itself is asked for."""

    def __init__(self) -> None:
        super().__init__(32, name="counting")
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return super().embed(texts)


@pytest.fixture
def model(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> CountingEmbedder:
    counting = CountingEmbedder()
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (counting, counting))
    close_services()
    return counting


def _ingest(folder: Path) -> str:
    result = runner.invoke(app, ["ingest", str(folder)], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def _write(folder: Path, paragraphs: list[str]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "animals.md").write_text("# Animals\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")


def test_an_edited_file_embeds_only_its_new_passage(model: CountingEmbedder, settings: Settings,
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    _write(folder, ["Zebras have stripes and live in herds on the savanna.",
                    "Giraffes have long necks and eat leaves from tall trees."])
    _ingest(folder)
    first = list(model.seen)
    assert first, "the first ingest embeds its passages"
    assert settings.vectors_db_path.exists()

    # WHEN the file gains a paragraph (its chunks change) and is ingested again
    model.seen.clear()
    _write(folder, ["Zebras have stripes and live in herds on the savanna.",
                    "Giraffes have long necks and eat leaves from tall trees.",
                    "Penguins cannot fly but swim very fast in cold water."])
    _ingest(folder)
    # THEN the model saw only texts it had not embedded before, and search still finds the new passage by both legs
    assert model.seen, "the new passage is embedded"
    assert not set(model.seen) & set(first)
    hits = json.loads(runner.invoke(app, ["search", "penguins swim", "--json"]).output)["hits"]
    assert hits and hits[0]["doc"] == "animals.md"
    retrieval = get_services().retrieval
    assert retrieval is not None and retrieval.index.vectors_pending() == 0  # type: ignore[attr-defined]


def test_the_same_passages_under_another_file_name_embed_nothing(model: CountingEmbedder, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    _write(folder, ["Zebras have stripes and live in herds on the savanna."])
    _ingest(folder)
    assert model.seen
    # WHEN the same content arrives again as another document (a copy, a restore, a second upload)
    model.seen.clear()
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "animals-copy.md").write_bytes((folder / "animals.md").read_bytes())
    output = _ingest(copy)
    # THEN it is indexed with its vectors and the model is not called
    assert "animals-copy.md: SUCCEEDED" in output
    assert model.seen == []
    retrieval = get_services().retrieval
    assert retrieval is not None and retrieval.index.vectors_pending() == 0  # type: ignore[attr-defined]


def test_the_cache_can_be_turned_off(model: CountingEmbedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_VECTOR_CACHE", "false")
    bootstrap.get_settings.cache_clear()
    close_services()
    folder = tmp_path / "docs"
    _write(folder, ["Zebras have stripes and live in herds on the savanna."])
    _ingest(folder)
    assert not get_services().settings.vectors_db_path.exists()
