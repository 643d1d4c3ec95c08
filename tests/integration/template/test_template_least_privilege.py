"""Least privilege in template.yaml: each function may call only what the code calls, on only what it uses.

Two independent sources are compared with the template:

- the code: every AWS operation ``ragspine/aws/`` names (method calls and the operation names it
  passes as strings), found by scanning the source for botocore's own operation names of each
  service, mapped to the IAM actions that authorise them; plus the calls of the Powertools
  utilities we use (Idempotency on DynamoDB, Parameters on Secrets Manager);
- an explicit scope per function: which resources (tables, bucket prefixes, index, state machine,
  secrets) it may touch, and with which actions at most.

A statement fails when it grants an action the code never calls, touches a resource outside the
function's scope, uses a wildcard resource where one can be named, or grants S3 objects on the
whole bucket instead of a prefix. SAM policy templates (DynamoDBCrudPolicy, S3CrudPolicy...) are
refused: their action lists are broader than any of our calls. The mutated templates at the end
show that each rule can fail.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from typing import Any

import botocore.session
import pytest
from botocore import xform_name

from tests.support.cfn import REPO_ROOT, load_template

AWS_CODE = REPO_ROOT / "shared" / "ragspine" / "aws"
SERVICES = {"dynamodb": "dynamodb", "s3": "s3", "stepfunctions": "states", "secretsmanager": "secretsmanager"}
# IAM authorises some operations through other actions (the service authorization reference).
IMPLIED = {
    "dynamodb:TransactWriteItems": {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem",
                                    "dynamodb:ConditionCheckItem"},
    "dynamodb:TransactGetItems": {"dynamodb:GetItem"},
    "s3:HeadObject": {"s3:GetObject"},
    "s3:ListObjectsV2": {"s3:ListBucket"},
    "s3:DeleteObjects": {"s3:DeleteObject"},
}
# Calls made inside libraries we use: Powertools Idempotency's DynamoDB layer and Parameters.
LIBRARY_CALLS = {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem",
                 "secretsmanager:GetSecretValue"}
# The chunk index is reached over HTTPS with SigV4: the actions are the HTTP methods the adapter sends.
ES_READ = {"es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost"}
ES_CALLS = ES_READ | {"es:ESHttpPut", "es:ESHttpDelete"}
# Actions that take no resource-level scope in IAM: a "*" resource is the only possible one.
UNSCOPED_ACTIONS = {"logs:CreateLogDelivery", "logs:GetLogDelivery", "logs:UpdateLogDelivery",
                    "logs:DeleteLogDelivery", "logs:ListLogDeliveries", "logs:PutResourcePolicy",
                    "logs:DescribeResourcePolicies", "logs:DescribeLogGroups"}

DDB_READ = {"dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan"}
DDB_WRITE = {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem",
             "dynamodb:BatchWriteItem"}
OBJECT_RW = {"s3:GetObject", "s3:PutObject", "s3:DeleteObject"}
# The published company domain every answering function reads (one object), and its bucket's listing.
DOMAIN_READ = {"DomainBucket/domain": {"s3:GetObject"}, "DomainBucket": {"s3:ListBucket"}}
# What each function may touch: resource (logical id, or bucket prefix as "UploadsBucket/<prefix>") -> actions.
SCOPE: dict[str, dict[str, set[str]]] = {
    "AskFunction": {**DOMAIN_READ, "FactsTable": DDB_READ, "SearchDomain": ES_READ},
    # The page's files come from its layer; its API reads documents, their versions and facts, and stores feedback.
    "PageFunction": {"IngestTable": {"dynamodb:GetItem", "dynamodb:Query"},
                     "FactsTable": {"dynamodb:Query", "dynamodb:BatchGetItem"},
                     "KnowledgeTable": {"dynamodb:GetItem"}, "FeedbackTable": {"dynamodb:PutItem", "dynamodb:Query"},
                     "UploadsBucket/uploads/": {"s3:GetObject"}, "UploadsBucket/knowledge/": {"s3:GetObject"},
                     "UploadsBucket/active/": {"s3:GetObject"}},
    "WorkflowFunction": {**DOMAIN_READ, "WorkflowsTable": DDB_READ | DDB_WRITE, "ApiKeyPepperSecret": {"secretsmanager:GetSecretValue"},
                         "SearchDomain": ES_READ, "CodeRunnerFunction": {"lambda:InvokeFunction"}},
    "WebhookFunction": {**DOMAIN_READ, "WorkflowsTable": DDB_READ | DDB_WRITE, "SearchDomain": ES_READ,
                        "CodeRunnerFunction": {"lambda:InvokeFunction"}},
    "CodeRunnerFunction": {},  # its role (CodeRunnerRole) grants nothing
    "IngestTriggerFunction": {"IngestTable": DDB_READ | DDB_WRITE, "IngestStateMachine": {"states:StartExecution"}},
    "WorkerFunction": {**DOMAIN_READ, "FactsTable": DDB_READ | DDB_WRITE, "IngestTable": DDB_READ | DDB_WRITE,
                       "UploadsBucket/uploads/": {"s3:GetObject"}, "UploadsBucket/knowledge/": {"s3:GetObject"},
                       "UploadsBucket/staging/": OBJECT_RW, "UploadsBucket/active/": OBJECT_RW,
                       "UploadsBucket/texts/": {"s3:PutObject"},
                       "UploadsBucket": {"s3:ListBucket"}, "SearchDomain": ES_CALLS},
    "KnowledgeFunction": {**DOMAIN_READ, "KnowledgeTable": DDB_READ | DDB_WRITE, "IngestTable": DDB_READ | DDB_WRITE,
                          "FactsTable": {"dynamodb:Query", "dynamodb:BatchWriteItem"},
                          "UploadsBucket/knowledge/": {"s3:GetObject", "s3:PutObject"},
                          "UploadsBucket/texts/": {"s3:GetObject", "s3:DeleteObject"},
                          "UploadsBucket/staging/": {"s3:GetObject"}, "UploadsBucket": {"s3:ListBucket"},
                          "IngestStateMachine": {"states:StartExecution"},
                          "GatewaySecret": {"secretsmanager:GetSecretValue"},
                          "SearchDomain": ES_READ | {"es:ESHttpDelete"}},
    "IngestStateMachine": {"WorkerFunction": {"lambda:InvokeFunction"}},
}
# The chunk index's paths the adapter calls: the index itself and the bulk endpoint at the domain root.
SEARCH_PATHS = {"${SearchDomain.Arn}/ragspine-chunks*", "${SearchDomain.Arn}/_bulk"}


@cache
def code_actions() -> frozenset[str]:
    """IAM actions authorising every AWS operation named in ragspine/aws (and our libraries' calls)."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(AWS_CODE.glob("*.py")))
    words = set(re.findall(r"\b[a-z][a-z0-9_]*\b", source))
    session = botocore.session.get_session()
    actions: set[str] = set()
    for service, prefix in SERVICES.items():
        for operation in session.get_service_model(service).operation_names:
            # one-word names (query, scan) are searched as "query" strings or .query( calls only
            name = xform_name(operation)
            if name in words and ("_" in name or re.search(rf"[\"'.]{name}[\"'(]", source)):
                action = f"{prefix}:{operation}"
                actions |= IMPLIED.get(action, {action})
    return frozenset(actions | LIBRARY_CALLS | ES_CALLS | {"lambda:InvokeFunction"})


def _policies(resource: dict[str, Any]) -> list[Any]:
    policies = resource.get("Properties", {}).get("Policies", [])
    return policies if isinstance(policies, list) else [policies]


def _statements(policy: Any) -> list[dict[str, Any]]:
    """The statements of one Policies entry, both branches of a condition included."""
    if isinstance(policy, dict) and "Fn::If" in policy:
        return [s for branch in policy["Fn::If"][1:] for s in _statements(branch)]
    if isinstance(policy, dict) and "Statement" in policy:
        return list(policy["Statement"])
    return []


def _target(resource: Any) -> str:
    """The scope key a resource names: a logical id, ``UploadsBucket/<prefix>``, or ``*`` for a wildcard."""
    if isinstance(resource, dict) and "Ref" in resource:
        return str(resource["Ref"])
    if isinstance(resource, dict) and "Fn::GetAtt" in resource:
        return str(resource["Fn::GetAtt"][0])
    if isinstance(resource, dict) and "Fn::Sub" in resource:
        text = str(resource["Fn::Sub"])
        if text in SEARCH_PATHS:
            return "SearchDomain"
        match = re.fullmatch(r"\$\{(\w+)\.Arn\}(?:/index/\*|:\*)?", text)
        if match:
            return match.group(1)
        if text == "${DomainBucket.Arn}/${DomainObjectPath}":
            return "DomainBucket/domain"
        match = re.fullmatch(r"\$\{UploadsBucket\.Arn\}/([a-z0-9-]+/)\*", text)
        if match:
            return f"UploadsBucket/{match.group(1)}"
    return "*"


def violations(template: dict[str, Any]) -> list[str]:
    """Every way the template's function and state machine policies exceed the code and the scope."""
    found: list[str] = []
    allowed_actions = code_actions()
    for name, resource in template["Resources"].items():
        if resource.get("Type") not in ("AWS::Serverless::Function", "AWS::Serverless::StateMachine"):
            continue
        scope = SCOPE.get(name)
        if scope is None:
            found.append(f"{name}: no least-privilege scope declared in this test")
            continue
        for policy in _policies(resource):
            if not (isinstance(policy, dict) and ("Statement" in policy or "Fn::If" in policy)):
                found.append(f"{name}: a SAM policy template or managed policy ({policy!r:.60}); write the statement")
            for statement in _statements(policy):
                actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
                resources = statement["Resource"] if isinstance(statement["Resource"], list) \
                    else [statement["Resource"]]
                for action in actions:
                    if "*" in action:
                        found.append(f"{name}: wildcard action {action}")
                    elif action not in allowed_actions and action not in UNSCOPED_ACTIONS:
                        found.append(f"{name}: {action} is never called by the code")
                for target in map(_target, resources):
                    if target == "*":
                        extra = set(actions) - UNSCOPED_ACTIONS
                        if extra:
                            found.append(f"{name}: wildcard resource for {sorted(extra)}, which can be named")
                        continue
                    if target not in scope:
                        found.append(f"{name}: touches {target}, outside its scope")
                        continue
                    beyond = set(actions) - scope[target]
                    if beyond:
                        found.append(f"{name}: {sorted(beyond)} on {target} exceed its scope")
    return found


def test_the_code_scan_finds_the_calls_the_adapters_make() -> None:
    # the scan is what the template is held to: it must see the adapters' real calls, and nothing invented
    actions = code_actions()
    assert {"dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem", "s3:GetObject", "s3:PutObject",
            "s3:ListBucket", "s3:DeleteObject", "states:StartExecution", "secretsmanager:PutSecretValue"} <= actions
    assert not {"dynamodb:DeleteTable", "dynamodb:CreateTable", "s3:DeleteBucket", "s3:PutBucketPolicy",
                "states:DeleteStateMachine", "secretsmanager:DeleteSecret"} & actions


def test_every_function_is_held_to_the_code_and_its_scope() -> None:
    assert violations(load_template()) == []


def test_no_function_may_change_a_secret() -> None:
    # PutSecretValue is the operator's command (token create), never a function's
    template = load_template()
    granted = {action for resource in template["Resources"].values() for policy in _policies(resource)
               for statement in _statements(policy) for action in statement["Action"]}
    assert "secretsmanager:PutSecretValue" not in granted


def _mutated(change: Any) -> dict[str, Any]:
    template = copy.deepcopy(load_template())
    change(template)
    return template


def _ask_statements(template: dict[str, Any]) -> list[dict[str, Any]]:
    return _statements(template["Resources"]["AskFunction"]["Properties"]["Policies"][0])


MUTATIONS = {
    "an action the code never calls": (
        lambda t: _ask_statements(t)[0]["Action"].append("dynamodb:DeleteTable"), "never called"),
    "a wildcard action": (lambda t: _ask_statements(t)[0]["Action"].append("dynamodb:*"), "wildcard action"),
    "a wildcard resource": (lambda t: _ask_statements(t)[0].update(Resource="*"), "wildcard resource"),
    "a write beyond the function's scope": (
        lambda t: _ask_statements(t)[0]["Action"].append("dynamodb:PutItem"), "exceed its scope"),
    "a table the function does not use": (
        lambda t: _ask_statements(t)[0]["Resource"].append({"Fn::GetAtt": ["KnowledgeTable", "Arn"]}),
        "KnowledgeTable, outside its scope"),
    "objects on the whole bucket": (
        lambda t: t["Resources"]["WorkerFunction"]["Properties"]["Policies"][2]["Statement"][0].update(
            Resource={"Fn::Sub": "${UploadsBucket.Arn}/*"}), "wildcard resource"),
    "a SAM policy template": (
        lambda t: t["Resources"]["AskFunction"]["Properties"]["Policies"].append(
            {"DynamoDBCrudPolicy": {"TableName": {"Ref": "FactsTable"}}}), "SAM policy template"),
    "the whole search domain to a reader": (
        lambda t: t["Resources"]["AskFunction"]["Properties"]["Policies"][1]["Fn::If"][1]["Statement"][0].update(
            Resource={"Fn::Sub": "${SearchDomain.Arn}/*"}), "wildcard resource"),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_mutated_template_is_refused(mutation: str) -> None:
    # GIVEN the template with one over-broad grant
    change, expected = MUTATIONS[mutation]
    # WHEN it is checked
    found = violations(_mutated(change))
    # THEN the check names it
    assert any(expected in line for line in found), json.dumps(found, indent=1)
