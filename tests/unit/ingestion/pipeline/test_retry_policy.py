"""The retry policy: bounded exponential backoff, transient vs permanent, and parity with the ASL file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.errors import ConfigurationError, InvalidInputError, ProviderUnavailableError
from ragspine.ingestion.errors import CorruptDocumentError, IngestionError, SourceUnavailableError
from ragspine.ingestion.retry import RetryPolicy, error_name
from tests.support.asl_retry import from_asl, to_asl_retry
from tests.support.cfn import REPO_ROOT

REPO_ASL = REPO_ROOT / "infra" / "statemachine" / "ingest.asl.json"


def _asl(tmp_path: Path, *retries: dict[str, object]) -> Path:
    states = {f"Step{i}": {"Type": "Task", "Resource": "arn:worker", "Retry": [retry], "Next": "Done"}
              for i, retry in enumerate(retries)}
    states["Done"] = {"Type": "Succeed"}
    path = tmp_path / "ingest.asl.json"
    path.write_text(json.dumps({"StartAt": "Step0", "States": states}), encoding="utf-8")
    return path


class TestClassification:
    @pytest.mark.parametrize("exc", [ProviderUnavailableError("down"), SourceUnavailableError("io"),
                                     OSError("disk"), TimeoutError("slow")])
    def test_transient_errors_are_retried(self, exc: Exception) -> None:
        assert RetryPolicy().retries(exc)

    @pytest.mark.parametrize("exc", [IngestionError("bad"), CorruptDocumentError("bad"),
                                     InvalidInputError("bad"), ValueError("bug")])
    def test_permanent_errors_are_not_retried(self, exc: Exception) -> None:
        assert not RetryPolicy().retries(exc)

    def test_error_name_reports_the_retried_base_class_as_asl_matches_names_exactly(self) -> None:
        assert error_name(SourceUnavailableError("io")) == "ProviderUnavailableError"
        assert error_name(TimeoutError("slow")) == "OSError"
        assert error_name(CorruptDocumentError("bad")) == "CorruptDocumentError"


class TestBackoff:
    def test_delays_grow_exponentially_and_are_capped(self) -> None:
        policy = RetryPolicy(interval_s=1, backoff_rate=2, max_delay_s=5)
        assert [policy.delay(n) for n in (1, 2, 3, 4)] == [1, 2, 4, 5]

    def test_invalid_policy_is_refused(self) -> None:
        with pytest.raises(ConfigurationError):
            RetryPolicy(max_attempts=0)


class TestFromAsl:
    def test_reads_the_policy_counting_asl_retries_plus_the_first_attempt(self, tmp_path: Path) -> None:
        retry = to_asl_retry(RetryPolicy())
        assert retry["MaxAttempts"] == 4
        path = _asl(tmp_path, retry, retry)
        assert from_asl(path) == RetryPolicy()

    def test_tasks_that_disagree_are_refused(self, tmp_path: Path) -> None:
        retry = to_asl_retry(RetryPolicy())
        with pytest.raises(ConfigurationError, match="disagree"):
            from_asl(_asl(tmp_path, retry, {**retry, "MaxAttempts": 2}))

    def test_a_definition_without_our_retry_is_refused(self, tmp_path: Path) -> None:
        with pytest.raises(ConfigurationError, match="no Task state"):
            from_asl(_asl(tmp_path, {"ErrorEquals": ["States.Timeout"], "MaxAttempts": 1}))

    @pytest.mark.skipif(not REPO_ASL.exists(), reason="infra/statemachine/ingest.asl.json not written yet")
    def test_the_state_machine_retries_exactly_as_the_in_process_runner(self) -> None:
        assert from_asl(REPO_ASL) == RetryPolicy()


def test_an_unavailable_provider_that_says_it_is_not_retryable_is_not_retried() -> None:
    from ragspine.aws.opensearch_errors import OpenSearchIndexMissingError, OpenSearchUnavailableError

    policy = RetryPolicy()
    assert policy.retries(OpenSearchUnavailableError("timed out"))
    assert not policy.retries(OpenSearchIndexMissingError("the chunk index does not exist"))
