"""``ragspine feedback list`` shows what readers reported, with the locator of the number."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.feedback.store import FeedbackReason, FeedbackStore
from ragspine.settings import Settings


def test_feedback_list_shows_the_number_its_source_and_the_question(settings: Settings) -> None:
    runner = CliRunner()
    assert "no feedback yet" in runner.invoke(app, ["feedback", "list"]).output
    store = FeedbackStore(settings.data_dir / "feedback.db")
    store.add(reason=FeedbackReason.HELPFUL, question="first?", answer="a")
    store.add(reason=FeedbackReason.WRONG_SOURCE, question="2024年日本的毛利率是多少", answer="36.0 PCT", value="36.0",
              doc="ACME_FY2024_Review.pptx", locator="slide=4,table=1,row=GROSS_MARGIN,col=FY2024")
    shown = runner.invoke(app, ["feedback", "list"])
    assert shown.exit_code == 0, shown.output
    first_line = shown.output.splitlines()[0]
    assert "wrong_source" in first_line and "36.0" in first_line
    assert "ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024" in first_line
    assert "2024年日本的毛利率是多少" in shown.output
    listed = json.loads(runner.invoke(app, ["feedback", "list", "--json", "--limit", "1"]).output)
    assert [item["reason"] for item in listed] == ["wrong_source"]


def test_on_aws_feedback_list_reads_the_deployed_pages_feedback_table(aws_settings: Settings, aws: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from ragspine.aws.dynamo_feedback import DynamoFeedbackStore
    from ragspine.settings import get_settings
    from tests.support.cfn import dynamodb_create_table_kwargs

    aws.create_table(**dynamodb_create_table_kwargs("FeedbackTable", "ragspine-feedback-cli"))
    monkeypatch.setenv("RAGSPINE_FEEDBACK_TABLE", "ragspine-feedback-cli")
    get_settings.cache_clear()
    DynamoFeedbackStore("ragspine-feedback-cli", client=aws).add(
        reason=FeedbackReason.WRONG_NUMBER, question="ACME_CN 2024Q3?", answer="322", value="322",
        doc="ACME_Quarterly_Revenue.xlsx", locator="sheet=2024,cell=D2")
    listed = json.loads(CliRunner().invoke(app, ["feedback", "list", "--json"]).output)
    assert [(i["reason"], i["locator"]) for i in listed] == [("wrong_number", "sheet=2024,cell=D2")]
    get_settings.cache_clear()
