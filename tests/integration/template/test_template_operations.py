"""The operations side of template.yaml: retries and catches, dead letters, logs, tracing, alarms, data, secrets."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.cfn import REPO_ROOT, load_template

ASL = REPO_ROOT / "infra" / "statemachine" / "ingest.asl.json"
MAX_RETRY_ATTEMPTS = 5


def _resources(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return _resources(template, "AWS::Serverless::Function")


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _tasks(states: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: state for name, state in states.items() if state["Type"] == "Task"}


class TestStateMachine:
    def test_every_task_retries_a_bounded_number_of_times_and_catches_everything(self) -> None:
        definition = json.loads(ASL.read_text(encoding="utf-8"))
        tasks = _tasks(definition["States"])
        assert "MarkFailed" in tasks and len(tasks) == 7
        for name, task in tasks.items():
            assert task["Retry"], name
            for retry in task["Retry"]:
                assert 1 <= retry["MaxAttempts"] <= MAX_RETRY_ATTEMPTS, name
                assert "States.ALL" not in retry["ErrorEquals"], f"{name} retries every error, permanent ones too"
            catches = [c for c in task.get("Catch", []) if "States.ALL" in c["ErrorEquals"]]
            assert catches, f"{name} has no Catch for States.ALL"
            assert definition["States"][catches[0]["Next"]]["Type"] in ("Task", "Fail"), name
        assert tasks["MarkFailed"]["Catch"][0]["Next"] == "Failed"

    def test_executions_time_out_and_log_errors_to_a_retained_group(self, template: dict[str, Any]) -> None:
        definition = json.loads(ASL.read_text(encoding="utf-8"))
        assert 0 < definition["TimeoutSeconds"] <= 24 * 3600
        machine = template["Resources"]["IngestStateMachine"]["Properties"]
        assert machine["Tracing"]["Enabled"] is True
        destination = machine["Logging"]["Destinations"][0]["CloudWatchLogsLogGroup"]["LogGroupArn"]
        group = template["Resources"][destination["Fn::GetAtt"][0]]
        assert group["Type"] == "AWS::Logs::LogGroup" and group["Properties"]["RetentionInDays"]


class TestFunctions:
    def test_each_function_logs_to_its_own_group_with_retention(self, template: dict[str, Any]) -> None:
        groups = set()
        for name, function in _functions(template).items():
            ref = function["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
            group = template["Resources"][ref]
            assert group["Type"] == "AWS::Logs::LogGroup", name
            assert group["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}, name
            groups.add(ref)
        assert len(groups) == len(_functions(template)) == 8  # ask, knowledge, workflow, webhook, code runner, page, ingest trigger, worker

    def test_every_function_traces_with_the_powertools_tracer_and_emits_metrics(self, template: dict[str, Any]) -> None:
        assert template["Globals"]["Function"]["Tracing"] == "Active"
        for function in _functions(template).values():
            folder = function["Properties"]["CodeUri"]
            source = (REPO_ROOT / folder / "app.py").read_text(encoding="utf-8")
            assert "@tracer.capture_lambda_handler" in source, folder
            assert "@metrics.log_metrics" in source, folder
        for api in _resources(template, "AWS::Serverless::Api").values():
            assert api["Properties"]["TracingEnabled"] is True

    def test_the_s3_trigger_has_a_dead_letter_queue_and_bounded_async_retries(self, template: dict[str, Any]) -> None:
        trigger = template["Resources"]["IngestTriggerFunction"]["Properties"]
        queue = trigger["DeadLetterQueue"]["TargetArn"]["Fn::GetAtt"][0]
        assert trigger["DeadLetterQueue"]["Type"] == "SQS"
        assert template["Resources"][queue]["Type"] == "AWS::SQS::Queue"
        assert 0 <= trigger["EventInvokeConfig"]["MaximumRetryAttempts"] <= 2


class TestAlarms:
    @staticmethod
    def _alarmed(template: dict[str, Any]) -> set[tuple[str, str, str]]:
        found = set()
        for alarm in _resources(template, "AWS::CloudWatch::Alarm").values():
            props = alarm["Properties"]
            assert props["AlarmActions"] == [{"Ref": "AlarmTopic"}]
            dimension = props["Dimensions"][0]["Value"]
            target = json.dumps(dimension)
            found.add((props["Namespace"], props["MetricName"], target))
        return found

    def test_errors_and_throttles_of_every_function(self, template: dict[str, Any]) -> None:
        alarmed = self._alarmed(template)
        for name in _functions(template):
            for metric in ("Errors", "Throttles"):
                assert ("AWS/Lambda", metric, json.dumps({"Ref": name})) in alarmed, (name, metric)

    def test_failed_and_timed_out_executions_the_dead_letters_and_each_apis_5xx(self, template: dict[str, Any]) -> None:
        alarmed = self._alarmed(template)
        machine = json.dumps({"Ref": "IngestStateMachine"})
        assert ("AWS/States", "ExecutionsFailed", machine) in alarmed
        assert ("AWS/States", "ExecutionsTimedOut", machine) in alarmed
        queue = json.dumps({"Fn::GetAtt": ["IngestTriggerDeadLetterQueue", "QueueName"]})
        assert ("AWS/SQS", "ApproximateNumberOfMessagesVisible", queue) in alarmed
        apis = _resources(template, "AWS::Serverless::Api")
        five_xx = {target for namespace, metric, target in alarmed if metric == "5XXError"}
        assert {json.dumps(api["Properties"]["Name"]) for api in apis.values()} == five_xx


class TestData:
    def test_tables_have_point_in_time_recovery_and_encryption(self, template: dict[str, Any]) -> None:
        tables = _resources(template, "AWS::DynamoDB::Table")
        assert set(tables) == {"FactsTable", "FeedbackTable", "IngestTable", "KnowledgeTable", "WorkflowsTable"}
        for name, table in tables.items():
            props = table["Properties"]
            assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True, name
            assert props["SSESpecification"]["SSEEnabled"] is True, name

    def test_idempotency_records_expire_by_ttl_on_the_attribute_powertools_writes(
            self, template: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
        from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

        monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")  # the layer builds a client; nothing is called
        ttl = template["Resources"]["KnowledgeTable"]["Properties"]["TimeToLiveSpecification"]
        layer = DynamoDBPersistenceLayer(table_name="unused", key_attr="pk", sort_key_attr="sk")
        assert ttl == {"AttributeName": layer.expiry_attr, "Enabled": True}

    def test_the_bucket_is_private_encrypted_versioned_and_expires_what_nobody_needs(
            self, template: dict[str, Any]) -> None:
        bucket = template["Resources"]["UploadsBucket"]["Properties"]
        assert all(bucket["PublicAccessBlockConfiguration"].values())
        assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
        assert bucket["VersioningConfiguration"]["Status"] == "Enabled"
        rules = {rule["Id"]: rule for rule in bucket["LifecycleConfiguration"]["Rules"]}
        assert rules["ExpireIngestStaging"]["Prefix"] == "staging/"
        assert rules["AbortIncompleteMultipartUploads"]["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"] >= 1
        policy = template["Resources"]["UploadsBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"][0]
        assert policy["Effect"] == "Deny" and policy["Condition"]["Bool"]["aws:SecureTransport"] == "false"


class TestSecrets:
    def test_no_secret_is_a_parameter_or_an_environment_value(self, template: dict[str, Any]) -> None:
        secretish = re.compile(r"(secret|token|pepper|password|key)", re.IGNORECASE)
        assert not [name for name in template["Parameters"] if secretish.search(name)]
        for name, function in _functions(template).items():
            variables = function["Properties"].get("Environment", {}).get("Variables", {})
            for variable, value in variables.items():
                if secretish.search(variable):
                    assert value in ({"Ref": "GatewaySecret"}, {"Ref": "ApiKeyPepperSecret"}), (name, variable)

    def test_the_functions_that_check_credentials_get_their_secrets_arn(self, template: dict[str, Any]) -> None:
        env = {name: f["Properties"].get("Environment", {}).get("Variables", {})
               for name, f in _functions(template).items()}
        assert env["KnowledgeFunction"]["RAGSPINE_KNOWLEDGE_SECRET"] == {"Ref": "GatewaySecret"}
        assert env["WorkflowFunction"]["RAGSPINE_API_KEY_PEPPER_SECRET"] == {"Ref": "ApiKeyPepperSecret"}
        for secret in ("GatewaySecret", "ApiKeyPepperSecret"):
            assert template["Resources"][secret]["Properties"]["GenerateSecretString"]


class TestApisAndOutputs:
    def test_webhooks_have_their_own_gateway_throttle(self, template: dict[str, Any]) -> None:
        settings = template["Resources"]["PublicApi"]["Properties"]["MethodSettings"]
        webhook = [s for s in settings if s["ResourcePath"] == "/~1webhook~1{path+}"]
        assert webhook and webhook[0]["ThrottlingRateLimit"] == {"Ref": "WebhookRateLimit"}

    def test_the_peer_surfaces_and_the_gateway_are_on_their_own_apis(self, template: dict[str, Any]) -> None:
        apis = {event["Properties"]["Path"]: event["Properties"]["RestApiId"]["Ref"]
                for function in _functions(template).values()
                for event in function["Properties"].get("Events", {}).values() if event["Type"] == "Api"}
        assert apis["/v1/ask"] == apis["/v1/workflows/compile"] == "RagspineApi"
        assert apis["/webhook/{path+}"] == apis["/v1/workflows/run"] == apis["/api/v1/workflows"] == "PublicApi"
        assert apis["/internal/v1/knowledge/{proxy+}"] == "KnowledgeApi"

    def test_outputs_name_what_an_operator_needs(self, template: dict[str, Any]) -> None:
        outputs = set(template["Outputs"])
        assert {"ApiUrl", "PublicApiUrl", "KnowledgeApiUrl", "FactsTableName", "IngestTableName",
                "WorkflowsTableName", "KnowledgeTableName", "UploadsBucketName", "IngestStateMachineArn",
                "GatewaySecretArn", "ApiKeyPepperSecretArn", "AlarmTopicArn",
                "IngestTriggerDeadLetterQueueUrl"} <= outputs


class TestAuditRetention:
    def test_audit_entries_carry_the_tables_ttl_attribute_when_a_retention_is_configured(
            self, aws: Any, template: dict[str, Any]) -> None:
        from datetime import UTC, datetime

        from ragspine.aws.dynamo_knowledge import DynamoKnowledgeStore
        from ragspine.knowledge.model import AuditEntry
        from tests.support.cfn import dynamodb_create_table_kwargs

        # GIVEN the KnowledgeTable from the template and a store keeping audit entries 30 days
        aws.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "knowledge-ttl"))
        attribute = template["Resources"]["KnowledgeTable"]["Properties"]["TimeToLiveSpecification"]["AttributeName"]
        at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
        kept = DynamoKnowledgeStore("knowledge-ttl", client=aws, audit_retention_days=30)
        forever = DynamoKnowledgeStore("knowledge-ttl", client=aws)
        # WHEN each records one audited request
        kept.append_audit(AuditEntry(at, "alice", "SPACE_VIEW", "kept", "req", "", "", "ALLOWED"))
        forever.append_audit(AuditEntry(at, "alice", "SPACE_VIEW", "forever", "req", "", "", "ALLOWED"))
        items = aws.query(TableName="knowledge-ttl", KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues={":p": {"S": "AUDIT"}})["Items"]
        # THEN only the retained one expires, 30 days after it happened, on the attribute the TTL reads
        expiring = [item for item in items if attribute in item]
        assert len(items) == 2 and len(expiring) == 1
        assert int(expiring[0][attribute]["N"]) == int(at.timestamp()) + 30 * 86400
        assert sorted(e.resource for e in kept.audit(limit=5)) == ["forever", "kept"]
