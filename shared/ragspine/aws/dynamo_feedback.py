"""``DynamoFeedbackStore``: readers' feedback in the page's DynamoDB table (the AWS ``FeedbackLog``).

One item per piece of feedback under ``pk = "FEEDBACK"``, ``sk = <time>#<id>``, so the
administrator's list (newest first) is one Query read backwards. Feedback is a few writes a day,
well inside one partition's throughput.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ragspine.aws.dynamo_table import DynamoTable
from ragspine.feedback.store import Feedback, FeedbackReason, feedback_from_json, new_feedback

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

FEEDBACK_PK = "FEEDBACK"


class DynamoFeedbackStore:
    """Feedback items in a DynamoDB table keyed ``pk`` / ``sk``."""

    def __init__(self, table_name: str, *, client: DynamoDBClient | None = None, region: str | None = None,
                 endpoint_url: str | None = None) -> None:
        self.table = DynamoTable(table_name, label="feedback table", client=client, region=region,
                                 endpoint_url=endpoint_url)

    def add(self, *, reason: FeedbackReason, question: str, answer: str, comment: str = "",
            value: str | None = None, fact_id: str | None = None, doc: str | None = None,
            locator: str | None = None, version: str | None = None) -> Feedback:
        """Store one piece of feedback and return it with its id and time."""
        item = new_feedback(reason=reason, question=question, answer=answer, comment=comment, value=value,
                            fact_id=fact_id, doc=doc, locator=locator, version=version)
        self.table.call("put_item", TableName=self.table.name, Item={
            "pk": {"S": FEEDBACK_PK}, "sk": {"S": f"{item.created_at}#{item.id}"},
            "body": {"S": json.dumps(item.as_dict(), ensure_ascii=False)}})
        return item

    def list(self, *, limit: int = 100) -> list[Feedback]:
        """The newest feedback first (at most ``limit``)."""
        found: list[Feedback] = []
        kwargs: dict[str, object] = {"TableName": self.table.name, "KeyConditionExpression": "pk = :p",
                                     "ExpressionAttributeValues": {":p": {"S": FEEDBACK_PK}},
                                     "ScanIndexForward": False, "Limit": limit}
        while len(found) < limit:
            page = self.table.call("query", **kwargs)
            found.extend(feedback_from_json(item["body"]["S"]) for item in page.get("Items", []))
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        return found[:limit]
