"""``ragspine operations``: list, show and cancel what ``ragspine ingest`` recorded."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ragspine.bootstrap import build_operation_store
from ragspine.cli import app
from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.settings import Settings

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _ingest(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Notes\n\nThe zebra year.\n", encoding="utf-8")
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    runner.invoke(app, ["ingest", str(tmp_path / "notes.md"), str(tmp_path / "empty.md")], env=WIDE)


def test_list_shows_every_operation_with_status_and_error_code(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    result = runner.invoke(app, ["operations", "list"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "notes.md" in result.output and "SUCCEEDED" in result.output
    assert "empty.md" in result.output and "INGEST_EMPTY" in result.output
    assert "2 operations" in result.output
    as_json = json.loads(runner.invoke(app, ["operations", "list", "--doc", "empty.md", "--json"]).output)
    assert [(op["doc_id"], op["status"], op["error"]["code"]) for op in as_json] == [
        ("empty.md", "FAILED", "INGEST_EMPTY")]
    assert as_json[0]["error"]["retryable"] is False and as_json[0]["finished_at"]


def test_show_prints_one_operation_and_an_unknown_id_is_a_clear_error(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    failed = build_operation_store(settings).list_operations(doc_id="empty.md")[0]
    result = runner.invoke(app, ["operations", "show", failed.id], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "INGEST_EMPTY" in result.output and "(retryable: false)" in result.output
    missing = runner.invoke(app, ["operations", "show", "op-nope"])
    assert missing.exit_code == 2 and "KNOWLEDGE_NOT_FOUND" in missing.output and "Traceback" not in missing.output


def test_cancel_stops_a_pending_operation_and_refuses_a_finished_one(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    store = build_operation_store(settings)
    path = tmp_path / "later.md"
    path.write_text("# Later\n\nNot yet run.\n", encoding="utf-8")
    pending, _ = submit(path, operations=store, meta=DocumentMeta())
    result = runner.invoke(app, ["operations", "cancel", pending.id])
    assert result.exit_code == 0 and "CANCELLED" in result.output
    cancelled = store.get(pending.id)
    assert cancelled is not None and cancelled.status is OperationStatus.CANCELLED
    # ingesting the same file again finds the cancelled operation and runs nothing
    again = runner.invoke(app, ["ingest", str(path)], env=WIDE)
    assert "CANCELLED" in again.output
    done = store.list_operations(doc_id="notes.md")[0]
    refused = runner.invoke(app, ["operations", "cancel", done.id])
    assert refused.exit_code == 1 and "already ended SUCCEEDED" in refused.output


def test_retry_runs_a_retryable_failure_again_and_refuses_the_others(settings: Settings, tmp_path: Path) -> None:
    from ragspine.bootstrap import build_ingest_context, get_services
    from ragspine.errors import ProviderUnavailableError
    from ragspine.ingestion.retry import RetryPolicy
    from ragspine.ingestion.runner import InProcessRunner
    from ragspine.ingestion.steps import STEPS, Step

    def down(*_: object) -> object:
        raise ProviderUnavailableError("index unreachable")

    # GIVEN an operation that failed because the index was down, and one that failed for good
    context = build_ingest_context(get_services())
    path = tmp_path / "flaky.md"
    path.write_text("# Flaky\n\nThe yak year.\n", encoding="utf-8")
    pending, _ = submit(path, operations=context.operations, meta=DocumentMeta())
    failed = InProcessRunner(RetryPolicy(), steps={**STEPS, Step.CHECK_INDEX: down}, sleep=lambda _: None).run(
        pending.id, context=context)
    assert failed.status is OperationStatus.FAILED and failed.error is not None and failed.error.retryable
    _ingest(tmp_path)
    empty = build_operation_store(settings).list_operations(doc_id="empty.md")[0]
    # WHEN each is retried THEN the first succeeds and the other is refused with a conflict
    result = runner.invoke(app, ["operations", "retry", failed.id])
    assert result.exit_code == 0, result.output
    assert "SUCCEEDED" in result.output
    refused = runner.invoke(app, ["operations", "retry", empty.id])
    assert refused.exit_code == 2 and "KNOWLEDGE_CONFLICT" in refused.output and "not retryable" in refused.output
    again = runner.invoke(app, ["operations", "retry", failed.id])
    assert again.exit_code == 2 and "it is SUCCEEDED" in again.output
