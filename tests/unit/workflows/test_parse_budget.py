"""The webhook parse budget: large bodies share a byte budget in arrival order; small ones never wait."""

from __future__ import annotations

import asyncio

import pytest

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError
from ragspine.workflows.surfaces.parse_budget import ParseBudget, SenderGone

PATIENCE = 30.0  # bounds a hang only; nothing is asserted about durations


def test_a_large_body_waits_while_another_holds_the_budget_and_is_refused_at_its_deadline() -> None:
    budget = ParseBudget(100, small_bytes=10)

    async def scenario() -> None:
        async with budget.holding(80, wait_s=PATIENCE):
            assert budget.held_bytes() == 80
            with pytest.raises(WebhookBodiesBusyError) as refused:
                async with budget.holding(80, wait_s=0.05):
                    pytest.fail("two large bodies over the budget were parsed at once")
            assert refused.value.http_status == 503 and refused.value.retry_after >= 1
            async with budget.holding(10, wait_s=0):  # a small body never waits
                pass
        assert budget.held_bytes() == 0

    asyncio.run(scenario())


def test_the_waiting_body_is_served_when_the_first_gives_its_bytes_back() -> None:
    budget = ParseBudget(100, small_bytes=10)
    order: list[str] = []

    async def first(release: asyncio.Event) -> None:
        async with budget.holding(60, wait_s=PATIENCE):
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with budget.holding(60, wait_s=PATIENCE):
            order.append("second in")

    async def scenario() -> None:
        release = asyncio.Event()
        one = asyncio.create_task(first(release))
        while not order:
            await asyncio.sleep(0)
        two = asyncio.create_task(second())
        await asyncio.sleep(0.1)  # lets the second wait; the order, not the time, is asserted
        release.set()
        await asyncio.gather(one, two)

    asyncio.run(scenario())
    assert order == ["first in", "first out", "second in"]


def test_a_body_over_the_whole_budget_runs_alone() -> None:
    budget = ParseBudget(100, small_bytes=10)
    assert budget.take(500)  # nothing held: it may run
    assert not budget.take(20)
    budget.give_back(500)
    assert budget.take(20) and budget.take(80) and not budget.take(11)


def test_a_body_that_waits_is_not_overtaken_by_a_later_one_that_would_fit() -> None:
    budget = ParseBudget(100, small_bytes=10)
    assert budget.take(60)

    async def scenario() -> None:
        waiting = asyncio.create_task(_hold(budget, 60))
        await asyncio.sleep(0.05)
        assert not budget.take(40)  # fits, but the 60-byte body asked first
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert budget.take(40)  # a cancelled waiter leaves the queue

    asyncio.run(scenario())


async def _hold(budget: ParseBudget, size: int) -> None:
    async with budget.holding(size, wait_s=PATIENCE):
        pass


def test_nonsense_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one byte"):
        ParseBudget(0)


def test_no_more_bodies_wait_than_the_budget_allows_and_one_more_is_refused_at_once() -> None:
    # A waiting body holds its raw bytes but no reading slot: the count of waiters bounds those bytes.
    budget = ParseBudget(100, small_bytes=10, max_waiting=1)

    async def waiter() -> None:
        async with budget.holding(60, wait_s=PATIENCE):
            pass

    async def scenario() -> None:
        assert budget.take(100)
        waiting = asyncio.create_task(waiter())
        while not budget.waiting():
            await asyncio.sleep(0)
        with pytest.raises(WebhookBodiesBusyError) as refused:
            async with budget.holding(60, wait_s=PATIENCE):  # refused at once, not after PATIENCE
                pytest.fail("a second body waited past the limit")
        assert refused.value.http_status == 503 and "wait their turn" in refused.value.message
        assert budget.waiting() == 1
        budget.give_back(100)
        await waiting
        assert (budget.waiting(), budget.held_bytes()) == (0, 0)

    asyncio.run(scenario())


def test_the_waiting_places_are_shared_between_paths_and_clients() -> None:
    # Four places: one path may take two of them and one client three, as of the reading slots.
    budget = ParseBudget(100, small_bytes=10, max_waiting=4)

    async def waiter(path: str, client: str) -> None:
        async with budget.holding(60, wait_s=PATIENCE, path=path, client=client):
            pass

    async def wait_in_place(path: str, client: str) -> asyncio.Task[None]:
        before = budget.waiting()
        task = asyncio.create_task(waiter(path, client))
        while budget.waiting() == before:
            await asyncio.sleep(0)
        return task

    async def refused(path: str, client: str) -> str:
        with pytest.raises(WebhookBodiesLimitError) as refusal:
            async with budget.holding(60, wait_s=PATIENCE, path=path, client=client):
                pytest.fail("a body waited over its share")
        assert refusal.value.http_status == 429 and refusal.value.retry_after >= 1
        return refusal.value.message

    async def scenario() -> None:
        assert budget.take(100)
        tasks = [await wait_in_place("hog", "a"), await wait_in_place("hog", "a")]
        assert "webhook 'hog' already has 2 large bodies waiting" in await refused("hog", "b")
        tasks.append(await wait_in_place("other", "a"))  # another path of the same client still waits
        assert "this client already has 3" in await refused("third", "a")
        tasks.append(await wait_in_place("third", "b"))  # another client takes the last place
        assert (budget.waiting(path="hog"), budget.waiting(client="a"), budget.waiting()) == (2, 3, 4)
        budget.give_back(100)
        await asyncio.gather(*tasks)
        assert (budget.waiting(), budget.waiting(path="hog"), budget.waiting(client="a")) == (0, 0, 0)

    asyncio.run(scenario())


def test_a_waiter_whose_sender_hung_up_gives_its_place_up_and_is_not_run() -> None:
    budget = ParseBudget(100, small_bytes=10, max_waiting=1)
    hung_up = asyncio.Event()
    ran: list[str] = []

    async def waiter() -> None:
        async with budget.holding(60, wait_s=PATIENCE, path="p", client="a", gone=hung_up.is_set):
            ran.append("ran")

    async def scenario() -> None:
        assert budget.take(100)
        task = asyncio.create_task(waiter())
        while not budget.waiting():
            await asyncio.sleep(0)
        hung_up.set()
        with pytest.raises(SenderGone):
            await task
        assert budget.waiting() == 0  # its place is free for another body
        budget.give_back(100)

    asyncio.run(scenario())
    assert ran == [] and budget.held_bytes() == 0
