"""Admission of workflow runs: a key over its share gets 429, a full process 503, at once; places come back."""

from __future__ import annotations

import gc
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.workflows.errors import WorkflowRunLimitError, WorkflowRunsBusyError
from ragspine.workflows.run import RunCapacity, RunTicket


def _held(capacity: RunCapacity, key: str, release: threading.Event) -> threading.Event:
    """Admit and start one run of ``key`` that waits for ``release``; the returned event is set once it runs."""
    running = threading.Event()

    def work() -> None:
        running.set()
        release.wait(30)

    capacity.admit(key).submit(work)
    assert running.wait(30)
    return running


class TestAdmission:
    def test_a_key_over_its_share_is_refused_with_429_and_a_retry_hint(self) -> None:
        capacity, release = RunCapacity(total=4, per_key=2), threading.Event()
        for _ in range(2):
            _held(capacity, "app:a", release)
        with pytest.raises(WorkflowRunLimitError) as refused:
            capacity.admit("app:a")
        assert refused.value.http_status == 429 and refused.value.retryable and refused.value.retry_after > 0
        capacity.admit("app:b").release()  # another key still gets in
        release.set()

    def test_a_full_process_refuses_every_key_with_503(self) -> None:
        capacity, release = RunCapacity(total=3, per_key=2), threading.Event()
        for key in ("app:a", "app:a", "webhook:x"):
            _held(capacity, key, release)
        with pytest.raises(WorkflowRunsBusyError) as refused:
            capacity.admit("webhook:y")
        assert refused.value.http_status == 503 and refused.value.retryable
        assert capacity.in_flight() == 3
        release.set()

    def test_a_run_gives_its_place_back_when_it_ends_even_by_raising(self) -> None:
        capacity = RunCapacity(total=1, per_key=1)

        def broken() -> None:
            raise ValueError("the node crashed")

        with pytest.raises(ValueError, match="crashed"):
            capacity.admit("app:a").submit(broken).result(30)
        assert capacity.admit("app:a").submit(lambda: "ran").result(30) == "ran"
        assert capacity.in_flight() == 0

    def test_a_ticket_never_used_gives_its_place_back_when_dropped(self) -> None:
        capacity = RunCapacity(total=1, per_key=1)
        ticket: RunTicket | None = capacity.admit("app:a")
        assert capacity.in_flight() == 1
        del ticket
        gc.collect()
        assert capacity.in_flight() == 0

    def test_a_ticket_carries_one_run_and_release_after_submit_changes_nothing(self) -> None:
        capacity, release = RunCapacity(total=2, per_key=2), threading.Event()
        ticket = capacity.admit("app:a")
        running = threading.Event()

        def work() -> None:
            running.set()
            release.wait(30)

        ticket.submit(work)
        assert running.wait(30)
        ticket.release()  # the run is still going: its place stays taken
        assert capacity.in_flight() == 1
        with pytest.raises(RuntimeError, match="one run"):
            ticket.submit(lambda: None)
        release.set()

    def test_limits_below_one_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one"):
            RunCapacity(total=0)


# A script of admissions (a key index) and finishes (None: the oldest admitted run ends).
SCRIPTS = st.lists(st.one_of(st.integers(min_value=0, max_value=3), st.none()), max_size=40)


@settings(max_examples=60, deadline=None)
@given(script=SCRIPTS, total=st.integers(min_value=1, max_value=5), per_key=st.integers(min_value=1, max_value=5))
def test_admission_follows_the_two_limits_for_any_sequence(script: list[int | None], total: int,
                                                           per_key: int) -> None:
    capacity = RunCapacity(total=total, per_key=per_key)
    admitted: list[tuple[str, RunTicket]] = []
    for step in script:
        if step is None:
            if admitted:
                admitted.pop(0)[1].release()
            continue
        key = f"key-{step}"
        mine = sum(1 for k, _ in admitted if k == key)
        if mine >= min(per_key, total):
            with pytest.raises(WorkflowRunLimitError):
                capacity.admit(key)
        elif len(admitted) >= total:
            with pytest.raises(WorkflowRunsBusyError):
                capacity.admit(key)
        else:
            admitted.append((key, capacity.admit(key)))
        assert capacity.in_flight() == len(admitted)
