"""The whole SAM stack in one process: every table, the bucket and the state machine built from ``template.yaml``.

``deploy_stack`` reads the template's own resource properties and turns them into moto calls:
each ``AWS::DynamoDB::Table`` / ``AWS::Serverless::SimpleTable`` (keys, indexes, TTL, point-in-time
recovery, encryption), the ``AWS::S3::Bucket`` (versioning, encryption, public access block,
lifecycle rules) and each ``AWS::Serverless::StateMachine`` (its ``DefinitionUri`` with the
``DefinitionSubstitutions`` resolved). Every ``AWS::Serverless::Function`` becomes a moto Lambda
whose invocations run ``<CodeUri>/app.handler`` in-process, so moto's Step Functions interpreter
calls the real worker. Each function's environment (``Globals`` plus its own, intrinsics resolved)
is applied to the process; the functions must agree on every shared variable, which the helper checks.
S3 events reach the functions whose ``Events`` of type S3 match the object (event name and key filter).

With ``server`` (a ``ThreadedMotoServer`` of this process, see ``tests.support.moto_server``) the same
resources are created over HTTP, every client reaches them through ``AWS_ENDPOINT_URL``, and
``handler_factory`` may run each function elsewhere (the artifact suite runs the built functions in
their own python3.12 processes).
"""

from __future__ import annotations

import copy
import fnmatch
import importlib
import json
import re
import time
import types
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any
from unittest import mock
from urllib.parse import quote_plus

import pytest

from tests.support.cfn import REPO_ROOT, load_template
from tests.support.process_caches import close_knowledge_gateway, close_services

REGION = "us-east-1"
ACCOUNT = "123456789012"
_NO_VALUE = object()
_SIMPLE_TYPES = {"String": "S", "Number": "N", "Binary": "B"}


class Resolver:
    """Evaluates CloudFormation intrinsics against the moto resources (names, ARNs, attributes)."""

    def __init__(self, template: Mapping[str, Any], *, refs: Mapping[str, str], attributes: Mapping[str, str],
                 parameters: Mapping[str, str] | None = None) -> None:
        declared = template.get("Parameters", {})
        self.values = {name: str(spec.get("Default", "")) for name, spec in declared.items()}
        self.values.update(parameters or {})
        self.values.update({"AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::Partition": "aws",
                            "AWS::URLSuffix": "amazonaws.com", "AWS::StackName": "ragspine"})
        self.values.update(refs)
        self.attributes = dict(attributes)
        self.conditions = template.get("Conditions", {})

    def condition(self, name: str) -> bool:
        return bool(self.resolve(self.conditions[name]))

    def resolve(self, node: Any) -> Any:
        """The value CloudFormation would pass; ``AWS::NoValue`` drops the key or list item."""
        if isinstance(node, list):
            return [v for v in (self.resolve(item) for item in node) if v is not _NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            (key, arg), = node.items()
            if key == "Ref":
                return _NO_VALUE if arg == "AWS::NoValue" else self.values[arg]
            if key == "Fn::GetAtt":
                resource, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                return self.attributes[f"{resource}.{attribute}"]
            if key == "Fn::Sub":
                text, local = (arg, {}) if isinstance(arg, str) else (arg[0], self.resolve(arg[1]))
                return re.sub(r"\$\{([^}!]+)\}", lambda m: str(self._named(m.group(1), local)), text)
            if key == "Fn::If":
                name, then, otherwise = arg
                return self.resolve(then if self.condition(name) else otherwise)
            if key == "Fn::Equals":
                left, right = self.resolve(arg)
                return left == right
            if key == "Fn::Not":
                return not self.resolve(arg[0])
            if key == "Fn::And":
                return all(self.resolve(arg))
            if key == "Fn::Or":
                return any(self.resolve(arg))
            if key == "Condition":
                return self.condition(arg)
            if key == "Fn::Join":
                separator, items = arg
                return separator.join(str(i) for i in self.resolve(items))
        resolved = {k: self.resolve(v) for k, v in node.items()}
        return {k: v for k, v in resolved.items() if v is not _NO_VALUE}

    def _named(self, name: str, local: Mapping[str, Any]) -> Any:
        if name in local:
            return local[name]
        if "." in name:
            return self.attributes[name]
        return self.values[name]


def table_kwargs(resource_type: str, properties: Mapping[str, Any], name: str) -> dict[str, Any]:
    """``create_table`` arguments from a template table (``AWS::DynamoDB::Table`` or ``AWS::Serverless::SimpleTable``)."""
    if resource_type == "AWS::Serverless::SimpleTable":
        key = properties.get("PrimaryKey", {"Name": "id", "Type": "String"})
        kwargs: dict[str, Any] = {
            "TableName": name, "KeySchema": [{"AttributeName": key["Name"], "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": key["Name"], "AttributeType": _SIMPLE_TYPES[key["Type"]]}],
            "BillingMode": "PROVISIONED" if "ProvisionedThroughput" in properties else "PAY_PER_REQUEST"}
        if "ProvisionedThroughput" in properties:
            kwargs["ProvisionedThroughput"] = properties["ProvisionedThroughput"]
        if properties.get("SSESpecification", {}).get("SSEEnabled"):
            kwargs["SSESpecification"] = {"Enabled": True}
        return kwargs
    kwargs = {"TableName": name, "KeySchema": properties["KeySchema"],
              "AttributeDefinitions": properties["AttributeDefinitions"],
              "BillingMode": properties.get("BillingMode", "PROVISIONED")}
    for key in ("ProvisionedThroughput", "StreamSpecification"):
        if key in properties:
            kwargs[key] = properties[key]
    for key in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        if properties.get(key):
            kwargs[key] = [{k: index[k] for k in ("IndexName", "KeySchema", "Projection", "ProvisionedThroughput")
                            if k in index} for index in properties[key]]
    if properties.get("SSESpecification", {}).get("SSEEnabled"):
        kwargs["SSESpecification"] = {"Enabled": True}
    return kwargs


def lifecycle_rules(properties: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The bucket's CloudFormation lifecycle rules in the S3 API's shape."""
    rules: list[dict[str, Any]] = []
    for rule in properties.get("LifecycleConfiguration", {}).get("Rules", []):
        api: dict[str, Any] = {"ID": rule.get("Id", f"rule-{len(rules)}"), "Status": rule["Status"],
                               "Filter": {"Prefix": rule.get("Prefix", "")}}
        if "ExpirationInDays" in rule:
            api["Expiration"] = {"Days": rule["ExpirationInDays"]}
        if "NoncurrentVersionExpiration" in rule:
            api["NoncurrentVersionExpiration"] = {"NoncurrentDays": rule["NoncurrentVersionExpiration"]["NoncurrentDays"]}
        if "NoncurrentVersionExpirationInDays" in rule:
            api["NoncurrentVersionExpiration"] = {"NoncurrentDays": rule["NoncurrentVersionExpirationInDays"]}
        if "AbortIncompleteMultipartUpload" in rule:
            api["AbortIncompleteMultipartUpload"] = {
                "DaysAfterInitiation": rule["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"]}
        rules.append(api)
    return rules


def generated_secret(properties: Mapping[str, Any]) -> str:
    """The string CloudFormation stores for a secret: ``SecretString``, or ``GenerateSecretString``'s
    template with a random value under its key (a bare random string without a template)."""
    import secrets as random_source

    if "SecretString" in properties:
        return str(properties["SecretString"])
    spec = properties.get("GenerateSecretString", {})
    value = random_source.token_hex(int(spec.get("PasswordLength", 32)) // 2)
    if "SecretStringTemplate" not in spec:
        return value
    document = json.loads(spec["SecretStringTemplate"])
    document[spec["GenerateStringKey"]] = value
    return json.dumps(document)


def _encryption_rule(rule: Mapping[str, Any]) -> dict[str, Any]:
    """CloudFormation's ``ServerSideEncryptionByDefault`` is the API's ``ApplyServerSideEncryptionByDefault``."""
    api = {k: v for k, v in rule.items() if k != "ServerSideEncryptionByDefault"}
    if "ServerSideEncryptionByDefault" in rule:
        api["ApplyServerSideEncryptionByDefault"] = rule["ServerSideEncryptionByDefault"]
    return api


@dataclass
class S3Subscription:
    """One function's S3 event source: which bucket, events and key filter reach it."""

    function: str
    bucket: str
    events: list[str]
    prefix: str = ""
    suffix: str = ""

    def matches(self, bucket: str, event_name: str, key: str) -> bool:
        return (bucket == self.bucket and any(fnmatch.fnmatchcase(event_name, e) for e in self.events)
                and key.startswith(self.prefix) and key.endswith(self.suffix))


@dataclass
class Stack:
    """The deployed stack under moto: physical names, the functions' handlers, and user actions on S3."""

    template: dict[str, Any]
    names: dict[str, str]  # logical id -> physical name (tables, bucket, functions) or ARN (state machines)
    environment: dict[str, str]
    handlers: dict[str, Callable[[dict[str, Any], Any], Any]]
    subscriptions: list[S3Subscription]
    lambda_context: Any
    load_event: Callable[[str], dict[str, Any]]
    invocations: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # What the state machine's Retry waits do (skipped by default; a test may hold one to look at the run).
    retry_sleep: Callable[[float], None] = lambda seconds: None

    def client(self, service: str) -> Any:
        import boto3

        return boto3.client(service, region_name=REGION)  # type: ignore[call-overload]

    def invoke(self, function: str, event: dict[str, Any]) -> Any:
        """Run one function's handler as Lambda would (the event recorded for assertions)."""
        self.invocations.append((function, event))
        return self.handlers[function](event, self.lambda_context)

    def put_object(self, bucket_logical_id: str, key: str, body: bytes,
                   metadata: dict[str, str] | None = None) -> list[Any]:
        """Put an object as a user would, then deliver its S3 event to the subscribed functions."""
        bucket = self.names[bucket_logical_id]
        etag = self.client("s3").put_object(Bucket=bucket, Key=key, Body=body, Metadata=metadata or {})["ETag"]
        return self.notify(bucket, key, size=len(body), etag=etag.strip('"'))

    def notify(self, bucket: str, key: str, *, size: int, etag: str,
               event_name: str = "ObjectCreated:Put") -> list[Any]:
        """Deliver (or replay) the S3 event of one object; returns each subscribed function's result."""
        event = self.load_event("ingest_trigger_object_created")
        record = event["Records"][0]
        record["eventName"] = event_name
        record["s3"]["bucket"].update(name=bucket, arn=f"arn:aws:s3:::{bucket}")
        record["s3"]["object"].update(key=quote_plus(key), size=size, eTag=etag)
        record["s3"]["object"].pop("versionId", None)
        return [self.invoke(s.function, copy.deepcopy(event)) for s in self.subscriptions
                if s.matches(bucket, f"s3:{event_name}", key)]

    def executions(self, state_machine: str) -> list[dict[str, Any]]:
        listed = self.client("stepfunctions").list_executions(stateMachineArn=self.names[state_machine])
        return list(listed["executions"])


def _functions(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {logical: resource.get("Properties", {}) for logical, resource in template["Resources"].items()
            if resource["Type"] == "AWS::Serverless::Function"}


def _handler(properties: Mapping[str, Any]) -> Callable[[dict[str, Any], Any], Any]:
    """``CodeUri: functions/worker/`` + ``Handler: app.handler`` -> ``functions.worker.app.handler``."""
    module, attribute = properties["Handler"].rsplit(".", 1)
    package = properties["CodeUri"].strip("/").replace("/", ".")
    return getattr(importlib.import_module(f"{package}.{module}"), attribute)  # type: ignore[no-any-return]


def import_handler(logical: str, properties: Mapping[str, Any],
                   environment: Mapping[str, str]) -> Callable[[dict[str, Any], Any], Any]:
    """The checkout's handler, imported into this process (the environment is already applied)."""
    return _handler(properties)


HandlerFactory = Callable[[str, Mapping[str, Any], Mapping[str, str]], Callable[[dict[str, Any], Any], Any]]


def function_environment(template: Mapping[str, Any], resolver: Resolver) -> dict[str, dict[str, str]]:
    """Each function's environment: ``Globals.Function.Environment`` overlaid with its own, resolved."""
    shared = template.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    found = {}
    for logical, properties in _functions(template).items():
        own = properties.get("Environment", {}).get("Variables", {})
        found[logical] = {k: str(v) for k, v in resolver.resolve({**shared, **own}).items()}
    return found


def merged_environment(per_function: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """One process runs every function: their environments must not disagree on a shared variable."""
    merged: dict[str, str] = {}
    for function, variables in per_function.items():
        for name, value in variables.items():
            assert merged.setdefault(name, value) == value, f"{function} sets {name}={value!r}, another {merged[name]!r}"
    return merged


@contextmanager
def deploy_stack(monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]], lambda_context: Any,
                 *, search_endpoint: str | None, parameters: dict[str, str] | None = None,
                 extra_environment: dict[str, str] | None = None, server: str | None = None,
                 handler_factory: HandlerFactory = import_handler) -> Iterator[Stack]:
    """moto with every table, the bucket, the secrets, the functions and the state machine of ``template.yaml``.

    ``search_endpoint`` is where the ``SearchDomain`` answers (osmem-server, plain HTTP on loopback);
    ``None`` deploys with ``ChunkSearch=none``. ``extra_environment`` carries what a deployment adds
    outside the template (a test's key set file, the embedder choice). ``server`` is the base URL of a
    moto server running in this process; ``handler_factory`` turns each function (logical id, properties,
    its own environment) into the callable its invocations run.
    """
    import boto3
    from moto import mock_aws
    from moto.awslambda.models import LambdaFunction
    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

    from ragspine.aws.domain_store import forget_published_domain
    from ragspine.settings import get_settings

    template = load_template()
    resources = template["Resources"]
    parameters = {**(parameters or {}), **({} if search_endpoint else {"ChunkSearch": "none"})}
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": REGION, "AWS_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    if server:
        monkeypatch.setenv("AWS_ENDPOINT_URL", server)
        monkeypatch.setenv("MOTO_PORT", server.rsplit(":", 1)[-1])  # moto's Step Functions calls Lambda there
    holder: list[Stack] = []

    def invoke(self: Any, body: Any, request_headers: Any, response_headers: dict[str, str]) -> bytes:
        event = json.loads(body) if body else {}
        try:
            return json.dumps(holder[0].invoke(self.function_name, event)).encode()
        except Exception as exc:  # the Lambda "Unhandled" error contract
            response_headers["x-amz-function-error"] = "Unhandled"
            return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()

    backend: AbstractContextManager[Any] = (nullcontext() if server else
                                            mock_aws(config={"stepfunctions": {"execute_state_machine": True}}))
    with backend, \
            mock.patch.object(LambdaFunction, "invoke", invoke), \
            mock.patch.object(retrier_decl, "time", types.SimpleNamespace(sleep=lambda s: holder[0].retry_sleep(s))):
        names: dict[str, str] = {}
        attributes: dict[str, str] = {}
        if search_endpoint:
            attributes["SearchDomain.DomainEndpoint"] = search_endpoint.split("://", 1)[-1]
            attributes["SearchDomain.Arn"] = f"arn:aws:es:{REGION}:{ACCOUNT}:domain/ragspine"
        role = boto3.client("iam", region_name=REGION).create_role(
            RoleName="ragspine-stack", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        s3 = boto3.client("s3", region_name=REGION)
        for logical, resource in resources.items():
            kind, properties = resource["Type"], resource.get("Properties", {})
            if kind in ("AWS::DynamoDB::Table", "AWS::Serverless::SimpleTable"):
                names[logical] = f"ragspine-{logical.lower()}"
                dynamodb.create_table(**table_kwargs(kind, properties, names[logical]))
                if ttl := properties.get("TimeToLiveSpecification"):
                    dynamodb.update_time_to_live(TableName=names[logical], TimeToLiveSpecification=ttl)
                if properties.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled"):
                    dynamodb.update_continuous_backups(
                        TableName=names[logical],
                        PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
                attributes[f"{logical}.Arn"] = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{names[logical]}"
            elif kind == "AWS::S3::Bucket":
                names[logical] = f"ragspine-{logical.lower()}"
                bucket = names[logical]
                s3.create_bucket(Bucket=bucket)
                if "VersioningConfiguration" in properties:
                    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={
                        "Status": properties["VersioningConfiguration"]["Status"]})
                if "BucketEncryption" in properties:
                    s3.put_bucket_encryption(Bucket=bucket, ServerSideEncryptionConfiguration={"Rules": [
                        _encryption_rule(rule)
                        for rule in properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]]})
                if "PublicAccessBlockConfiguration" in properties:
                    s3.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration=properties[
                        "PublicAccessBlockConfiguration"])
                if rules := lifecycle_rules(properties):
                    s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": rules})
                attributes[f"{logical}.Arn"] = f"arn:aws:s3:::{bucket}"
        secretsmanager = boto3.client("secretsmanager", region_name=REGION)
        for logical, resource in resources.items():
            if resource["Type"] == "AWS::SecretsManager::Secret":
                created = secretsmanager.create_secret(Name=f"ragspine-{logical.lower()}",
                                                       SecretString=generated_secret(resource.get("Properties", {})))
                names[logical] = created["ARN"]  # Ref of a secret is its ARN
        for logical, resource in resources.items():
            # The page's sign-in (Cognito) is not exercised here: stand-in ids let the page function's
            # environment resolve (moto's Cognito needs an extra JOSE library).
            if resource["Type"].startswith("AWS::Cognito::"):
                names[logical] = f"{REGION}_{logical}"
        lambdas = boto3.client("lambda", region_name=REGION)
        for logical in _functions(template):
            created = lambdas.create_function(FunctionName=logical, Runtime="python3.12", Role=role,
                                              Handler="app.handler", Code={"ZipFile": b"PK\x05\x06" + b"\0" * 18})
            names[logical] = logical
            attributes[f"{logical}.Arn"] = created["FunctionArn"]
        # State machines last: their substitutions name the functions. Ref of a state machine is its ARN.
        stepfunctions = boto3.client("stepfunctions", region_name=REGION)
        for logical, resource in resources.items():
            if resource["Type"] != "AWS::Serverless::StateMachine":
                continue
            properties = resource["Properties"]
            resolver = Resolver(template, refs=names, attributes=attributes, parameters=parameters)
            definition = (REPO_ROOT / properties["DefinitionUri"]).read_text(encoding="utf-8")
            for key, value in resolver.resolve(properties.get("DefinitionSubstitutions", {})).items():
                definition = definition.replace(f"${{{key}}}", str(value))
            assert "${" not in definition, f"{logical}: a substitution the template does not define"
            names[logical] = stepfunctions.create_state_machine(name=logical, definition=definition,
                                                                roleArn=role)["stateMachineArn"]
            attributes[f"{logical}.Name"] = logical
            attributes[f"{logical}.Arn"] = names[logical]
        resolver = Resolver(template, refs=names, attributes=attributes, parameters=parameters)
        own_environment = function_environment(template, resolver)
        overrides: dict[str, str] = {}
        if search_endpoint:
            # The domain enforces HTTPS; osmem-server on loopback speaks plain HTTP.
            overrides["RAGSPINE_OPENSEARCH_ENDPOINT"] = search_endpoint
            overrides["RAGSPINE_OPENSEARCH_INDEX"] = f"ragspine-chunks-{uuid.uuid4().hex[:8]}"  # a server may be shared
        overrides.update(extra_environment or {})
        environment = {**merged_environment(own_environment), **overrides}
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        subscriptions = []
        for logical, properties in _functions(template).items():
            for source in properties.get("Events", {}).values():
                if source["Type"] != "S3":
                    continue
                spec = resolver.resolve(source["Properties"])
                key_filter = {r["Name"].lower(): r["Value"]
                              for r in spec.get("Filter", {}).get("S3Key", {}).get("Rules", [])}
                events = spec["Events"] if isinstance(spec["Events"], list) else [spec["Events"]]
                subscriptions.append(S3Subscription(logical, spec["Bucket"], events, key_filter.get("prefix", ""),
                                                    key_filter.get("suffix", "")))
        get_settings.cache_clear()
        close_services()
        close_knowledge_gateway()
        forget_published_domain()  # a new stack: its domain bucket is read afresh
        handlers = {logical: handler_factory(logical, properties, {**own_environment[logical], **overrides})
                    for logical, properties in _functions(template).items()}
        holder.append(Stack(template, names, environment, handlers, subscriptions, lambda_context, load_event))
        try:
            yield holder[0]
        finally:
            get_settings.cache_clear()
            close_services()
            close_knowledge_gateway()
            forget_published_domain()


def wait_for_executions(stack: Stack, state_machine: str = "IngestStateMachine") -> list[str]:
    """Wait until no execution of the state machine is RUNNING; return their end statuses (bounded wait)."""
    sfn = stack.client("stepfunctions")
    deadline = time.monotonic() + 120
    while True:
        statuses = [sfn.describe_execution(executionArn=e["executionArn"])["status"]
                    for e in stack.executions(state_machine)]
        if "RUNNING" not in statuses:
            return statuses
        assert time.monotonic() < deadline, "an execution never ended"
        time.sleep(0.05)
