"""moto's DynamoDB, as the tests run it, applies each request atomically while other threads write.

Without ``tests.support.moto_dynamodb`` a ``TransactWriteItems`` racing plain writes to the same table
fails with "dictionary changed size during iteration" (moto deep-copies the table for its rollback),
which made the Gateway's concurrent-mutation tests on the AWS backend flaky.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

REGION = "us-east-1"
SEED_ITEMS = 1000


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from moto import mock_aws

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    with mock_aws():
        import boto3

        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(TableName="race", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            BillingMode="PAY_PER_REQUEST")
        for i in range(SEED_ITEMS):  # a table large enough that copying it takes many thread switches
            client.put_item(TableName="race", Item={"pk": {"S": f"seed-{i}"}})
        yield client


def test_transactions_racing_plain_writes_neither_break_nor_both_win(table: Any) -> None:
    # GIVEN transactions that each create one of a few keys only if absent, and writers adding items meanwhile
    start = threading.Barrier(6)
    wins: list[str] = []
    errors: list[str] = []

    def transact(thread: int) -> None:
        start.wait()
        for key in range(25):
            try:
                table.transact_write_items(TransactItems=[{"Put": {
                    "TableName": "race", "Item": {"pk": {"S": f"once-{key}"}, "by": {"N": str(thread)}},
                    "ConditionExpression": "attribute_not_exists(pk)"}}])
                wins.append(f"once-{key}")
            except table.exceptions.TransactionCanceledException:
                pass
            except Exception as exc:  # recorded, so the assertion names it
                errors.append(repr(exc))

    def write(thread: int) -> None:
        start.wait()
        for i in range(150):
            table.put_item(TableName="race", Item={"pk": {"S": f"writer-{thread}-{i}"}})

    threads = [threading.Thread(target=transact, args=(t,)) for t in range(3)]
    threads += [threading.Thread(target=write, args=(t,)) for t in range(3)]
    # WHEN they all run at once
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # THEN no request broke, and each key was created by exactly one transaction
    assert errors == []
    assert sorted(wins) == sorted(f"once-{key}" for key in range(25))
