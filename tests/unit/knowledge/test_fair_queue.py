"""The local ingestion queue: spaces take turns, and no space holds every worker."""

from __future__ import annotations

from ragspine.knowledge.local_runtime import FairQueue


def test_spaces_take_turns_in_the_order_they_were_served() -> None:
    queue = FairQueue(per_key_limit=5)
    for item in ("a1", "a2", "a3"):
        queue.push("A", item)
    queue.push("B", "b1")
    queue.push("C", "c1")
    taken = [queue.take() for _ in range(5)]
    assert taken == [("A", "a1"), ("B", "b1"), ("C", "c1"), ("A", "a2"), ("A", "a3")]
    assert queue.take() is None


def test_a_space_at_its_limit_waits_while_others_run() -> None:
    queue = FairQueue(per_key_limit=1)
    queue.push("A", "a1")
    queue.push("A", "a2")
    assert queue.take() == ("A", "a1")
    assert queue.take() is None  # a2 waits: A already runs one
    queue.push("B", "b1")
    assert queue.take() == ("B", "b1")  # another space is served at once
    queue.done("A")
    assert queue.take() == ("A", "a2")
    assert not queue.idle()
    queue.done("A")
    queue.done("B")
    assert queue.idle()
