"""``DynamoTable``: one table's lazily created boto3 client, with SDK errors turned into ours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ProviderUnavailableError

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_CONDITION_FAILED = "ConditionalCheckFailedException"
_TRANSACTION_CANCELLED = "TransactionCanceledException"


class ConditionFailedError(Exception):
    """A conditional write was refused; the store translates it into its own domain error."""


class TransactionConflictError(ProviderUnavailableError):
    """A transaction lost a race with another one on the same item (retryable; a store may call it a conflict)."""


class DynamoTable:
    """Calls on one table; the client is created on first use so importing costs nothing."""

    def __init__(self, name: str, *, label: str, client: DynamoDBClient | None = None,
                 region: str | None = None, endpoint_url: str | None = None) -> None:
        self.name = name
        self._label = label
        self._client: LazyClient[DynamoDBClient] = LazyClient("dynamodb", client=client, region=region,
                                                              endpoint_url=endpoint_url)

    @property
    def client(self) -> DynamoDBClient:
        """The boto3 client (injected in tests, else built from region and endpoint)."""
        return self._client.get()

    def call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        """Run one client operation.

        Raises:
            ConditionFailedError: a ``ConditionExpression`` did not hold.
            ProviderUnavailableError: any other SDK or connection error (the code, never the message).
        """
        try:
            return getattr(self.client, operation)(**kwargs)  # type: ignore[no-any-return]
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "ClientError")
            if code == _CONDITION_FAILED or (code == _TRANSACTION_CANCELLED and _condition_cancelled(exc.response)):
                raise ConditionFailedError(code) from exc
            if code == _TRANSACTION_CANCELLED and _reason(exc.response, "TransactionConflict"):
                raise TransactionConflictError(f"DynamoDB {operation} on the {self._label} lost a race") from exc
            raise ProviderUnavailableError(f"DynamoDB {operation} on the {self._label} failed ({code})") from exc
        except BotoCoreError as exc:
            raise ProviderUnavailableError(f"DynamoDB {operation} could not be reached") from exc

    def paginate(self, operation: str, **kwargs: Any) -> list[dict[str, Any]]:
        """Every item of a ``query`` or ``scan``, following ``LastEvaluatedKey``."""
        items: list[dict[str, Any]] = []
        while True:
            page = self.call(operation, **kwargs)
            items += page.get("Items", [])
            if "LastEvaluatedKey" not in page:
                return items
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _reason(response: Any, code: str) -> bool:
    return any(reason.get("Code") == code for reason in response.get("CancellationReasons") or [])


def _condition_cancelled(response: Any) -> bool:
    """Whether a cancelled transaction failed on a condition (not a conflict or throttling, which are transient)."""
    reasons = response.get("CancellationReasons") or []
    return any(reason.get("Code") == "ConditionalCheckFailed" for reason in reasons)
