"""template.yaml is deployable: it lints, validates and builds, and the tests' fixtures match it.

The lint and build checks shell out to the tools virtualenv (``make tools``); when it is
missing they fail with that instruction instead of skipping, so a green run always means
the template was really checked.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tests.support.cfn import (
    REPO_ROOT,
    TEMPLATE_PATH,
    dynamodb_create_table_kwargs,
    load_template,
    tool,
)

EVENTS_DIR = REPO_ROOT / "events"
LINT_TIMEOUT_S = 180
PROXY_EVENT_KEYS = {
    "resource",
    "path",
    "httpMethod",
    "headers",
    "multiValueHeaders",
    "requestContext",
    "body",
}
REQUEST_CONTEXT_KEYS = {"requestId", "stage", "identity", "resourcePath", "httpMethod", "path"}


def _require_tool(name: str) -> Path:
    """The tool's path, or a test failure that says how to install it."""
    try:
        return tool(name)
    except FileNotFoundError as exc:
        message = str(exc)
    # Failing outside the except block keeps the report to the one actionable line.
    pytest.fail(message, pytrace=False)


def _tool_env(*, prepend_path: Path | None = None) -> dict[str, str]:
    """Environment for SAM/cfn-lint: offline-friendly, no telemetry, a fixed region."""
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "AWS_DEFAULT_REGION": "us-east-1"}
    if prepend_path is not None:
        env["PATH"] = f"{prepend_path}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(
    command: list[Any], *, env: dict[str, str] | None = None, timeout: int = LINT_TIMEOUT_S
) -> subprocess.CompletedProcess[str]:
    """Run a tool from the repository root and capture its output."""
    return subprocess.run(
        [str(part) for part in command],
        cwd=REPO_ROOT,
        env=env or _tool_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _report(done: subprocess.CompletedProcess[str]) -> str:
    """A failure message with everything the tool said."""
    return f"exit code {done.returncode}\n--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"


def _api_routes_by_function_folder(template: dict[str, Any]) -> dict[str, set[tuple[str, str]]]:
    """Map each function folder name (``ask``) to its ``(METHOD, path)`` Api events."""
    routes: dict[str, set[tuple[str, str]]] = {}
    for resource in template["Resources"].values():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        props = resource.get("Properties", {})
        api_events = [
            event["Properties"] for event in props.get("Events", {}).values() if event.get("Type") == "Api"
        ]
        if api_events:
            folder = Path(props["CodeUri"]).name
            routes[folder] = {(event["Method"].upper(), event["Path"]) for event in api_events}
    return routes


def _api_event_files(template: dict[str, Any]) -> list[tuple[str, Path]]:
    """``(function folder, file)`` for every ``events/<function>_<case>.json`` of an Api function."""
    return [
        (folder, path)
        for folder in sorted(_api_routes_by_function_folder(template))
        for path in sorted(EVENTS_DIR.glob(f"{folder}_*.json"))
    ]


@pytest.mark.slow
class TestTemplateChecks:
    """The template passes both linters, and the lint check is able to fail."""

    def test_cfn_lint_reports_no_findings(self) -> None:
        # GIVEN the repository template
        cfn_lint = _require_tool("cfn-lint")
        # WHEN cfn-lint checks it
        done = _run([cfn_lint, TEMPLATE_PATH])
        # THEN it exits 0 with nothing to report
        assert done.returncode == 0, _report(done)

    def test_sam_validate_with_lint_accepts_the_template(self) -> None:
        # GIVEN the repository template
        sam = _require_tool("sam")
        # WHEN SAM validates and lints it
        done = _run([sam, "validate", "--lint", "--template", TEMPLATE_PATH])
        # THEN it is a valid SAM template
        assert done.returncode == 0, _report(done)

    def test_cfn_lint_rejects_a_template_with_an_unknown_property(self, tmp_path: Path) -> None:
        # GIVEN a copy of the template whose table has a property CloudFormation does not know
        cfn_lint = _require_tool("cfn-lint")
        template = load_template()
        template["Resources"]["FactsTable"]["Properties"]["BogusProperty"] = "nope"
        broken = tmp_path / "template.json"
        broken.write_text(json.dumps(template, ensure_ascii=False, indent=2), encoding="utf-8")
        # WHEN cfn-lint checks the copy
        done = _run([cfn_lint, broken])
        # THEN it fails and names the offending property
        assert done.returncode != 0, _report(done)
        assert "BogusProperty" in done.stdout, _report(done)


LAYER_BUDGET_BYTES = 200 * 2**20  # any function, code and layers: room under Lambda's 250 MB unzipped
ASK_BUDGET_BYTES = 50 * 2**20  # the ask function is the latency path: its cold start loads all of it


def _unzipped_bytes(folder: Path) -> int:
    """Total size of the files under ``folder``, as Lambda counts them unzipped."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def _layers_by_function(template: dict[str, Any]) -> dict[str, list[str]]:
    """Map each function's logical id to the logical ids of the layers it references."""
    return {
        name: [layer["Ref"] for layer in resource["Properties"].get("Layers", [])]
        for name, resource in template["Resources"].items()
        if resource.get("Type") == "AWS::Serverless::Function"
    }


@pytest.mark.slow
class TestSamBuild:
    """``sam build`` packages the layers and the functions without Docker, each within its budget."""

    def test_sam_build_splits_the_layers_and_keeps_each_function_within_its_budget(
        self, sam_build: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # GIVEN the real template built into a scratch folder (one build per test run, see tests/support/sam_build.py)
        build_dir = sam_build
        # THEN the engine layer holds the engine and what every function imports, nothing more
        engine = build_dir / "EngineLayer" / "python"
        assert (engine / "ragspine" / "__init__.py").is_file()
        assert (engine / "pydantic").is_dir(), "shared/requirements.txt was not installed into the layer"
        for absent in ("pptx", "openpyxl", "docx", "pypdf", "pypdfium2", "lxml", "cryptography", "grpc", "botocore",
                       "aws_xray_sdk"):
            assert not (engine / absent).exists(), f"{absent} belongs outside the EngineLayer"
        # AND no other layer's sources ride along in it
        for absent in ("ingest-layer", "tracing-layer", "ingest", "tracing", "Makefile"):
            assert not (engine / absent).exists(), f"{absent} is another layer's source, not the EngineLayer's"
        assert (engine / "ragspine" / "aws" / "chunks-index.json").is_file(), "the OpenSearch mapping is package data"
        # AND the tracing layer holds the X-Ray SDK without the botocore the runtime already has
        tracing = build_dir / "TracingLayer" / "python"
        assert (tracing / "aws_xray_sdk").is_dir() and (tracing / "wrapt").is_dir()
        assert not (tracing / "botocore").exists(), "the tracing layer must not ship botocore"
        # AND the ingest layer holds the parsers' libraries
        ingest = build_dir / "IngestLayer" / "python"
        for present in ("pptx", "openpyxl", "docx", "pypdf", "pypdfium2", "lxml"):
            assert (ingest / present).is_dir(), f"layers/ingest/requirements.txt did not install {present}"
        # AND the functions carry only their code, except the knowledge function's cryptography
        function = build_dir / "AskFunction"
        assert (function / "app.py").is_file()
        assert not (function / "fastapi").exists(), "function dependencies belong in the engine layer"
        assert (build_dir / "KnowledgeFunction" / "cryptography").is_dir()
        # AND each function's code plus layers, unzipped, stays within its budget
        layers = _layers_by_function(load_template())
        totals = {
            name: _unzipped_bytes(build_dir / name) + sum(_unzipped_bytes(build_dir / layer) for layer in refs)
            for name, refs in layers.items()
        }
        with capsys.disabled():
            for name, total in sorted(totals.items()):
                print(f"\n{name}: {total / 2**20:.1f} MiB unzipped (code + {', '.join(layers[name])})", end="")
            print()
        assert layers["WorkerFunction"] == ["EngineLayer", "TracingLayer", "IngestLayer"]
        assert all("TracingLayer" in refs for refs in layers.values()), "every handler runs the Powertools Tracer"
        # the page function renders a cited region (a worksheet, a slide, a PDF page) with the parsers' libraries
        assert layers["PageFunction"] == ["EngineLayer", "TracingLayer", "IngestLayer"]
        assert all("IngestLayer" not in refs for name, refs in layers.items()
                   if name not in ("WorkerFunction", "PageFunction"))
        over = {name: total for name, total in totals.items() if total >= LAYER_BUDGET_BYTES}
        assert not over, f"over {LAYER_BUDGET_BYTES / 2**20:.0f} MiB unzipped: {over}"
        assert totals["AskFunction"] <= ASK_BUDGET_BYTES, (
            f"the ask function is {totals['AskFunction'] / 2**20:.1f} MiB unzipped (code + layers)"
        )


class TestSampleEvents:
    """``events/`` holds real-shaped API Gateway events for every route in the template."""

    def test_every_event_file_is_valid_json(self) -> None:
        # GIVEN every sample event
        paths = sorted(EVENTS_DIR.glob("*.json"))
        assert paths, f"no sample events in {EVENTS_DIR}"
        # WHEN each is parsed
        unreadable = []
        for path in paths:
            try:
                json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                unreadable.append(f"{path.name}: {exc}")
        # THEN all of them are JSON
        assert not unreadable

    def test_api_function_events_are_rest_proxy_events_for_their_own_routes(self) -> None:
        # GIVEN the sample events of every function that has Api events
        template = load_template()
        routes = _api_routes_by_function_folder(template)
        files = _api_event_files(template)
        assert files, "no events/<function>_<case>.json files for the Api functions"
        for folder, path in files:
            # WHEN one is read
            event = json.loads(path.read_text(encoding="utf-8"))
            # THEN it has the API Gateway REST (v1) proxy shape and targets a route of its function
            assert event.keys() >= PROXY_EVENT_KEYS, f"{path.name} lacks {PROXY_EVENT_KEYS - event.keys()}"
            assert event["requestContext"].keys() >= REQUEST_CONTEXT_KEYS, path.name
            assert event["isBase64Encoded"] is False, path.name
            assert event["body"] is None or isinstance(event["body"], str), (
                f"{path.name}: body must be a string"
            )
            assert set(event["headers"]) == set(event["multiValueHeaders"]), path.name
            if event["body"] is not None:
                header_names = {name.lower() for name in event["headers"]}
                assert "content-type" in header_names, f"{path.name} has a body but no Content-Type"
            route = (event["httpMethod"], event["resource"])
            assert route in routes[folder], f"{path.name} targets {route}, not a route of {folder}"
            context = event["requestContext"]
            assert (context["httpMethod"], context["resourcePath"]) == route, path.name
            assert context["path"] == f"/{context['stage']}{event['path']}", path.name

    def test_every_api_route_in_the_template_has_a_sample_event(self) -> None:
        # GIVEN the Api routes declared in the template
        template = load_template()
        declared = _api_routes_by_function_folder(template)
        # WHEN the sample events are collected per function
        covered: dict[str, set[tuple[str, str]]] = {folder: set() for folder in declared}
        for folder, path in _api_event_files(template):
            event = json.loads(path.read_text(encoding="utf-8"))
            covered[folder].add((event["httpMethod"], event["resource"]))
        # THEN no route is left without one
        missing = {folder: sorted(declared[folder] - covered[folder]) for folder in declared}
        assert not any(missing.values()), f"routes without events/<function>_<case>.json: {missing}"


class TestFactsTableFromTemplate:
    """Tests build the fact table from the template's own definition."""

    def test_template_table_creates_a_moto_table_keyed_by_pk_and_sk(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # GIVEN fake credentials and the FactsTable definition from template.yaml
        for name, value in {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_SESSION_TOKEN": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
        }.items():
            monkeypatch.setenv(name, value)
        kwargs = dynamodb_create_table_kwargs("FactsTable", "ragspine-facts-test")
        with mock_aws():
            client = boto3.client("dynamodb", region_name="us-east-1")
            # WHEN the table is created and one fact key is written
            client.create_table(**kwargs)
            client.put_item(
                TableName="ragspine-facts-test",
                Item={
                    "pk": {"S": "ACME_CN#REVENUE"},
                    "sk": {"S": "FY#2024#TOTAL"},
                    "source_doc_id": {"S": "doc-1"},
                },
            )
            table = client.describe_table(TableName="ragspine-facts-test")["Table"]
            by_doc = client.query(
                TableName="ragspine-facts-test",
                IndexName="by_source_doc",
                KeyConditionExpression="source_doc_id = :doc",
                ExpressionAttributeValues={":doc": {"S": "doc-1"}},
            )["Items"]
        # THEN the key is pk/sk and the document index finds the fact's key
        assert table["KeySchema"] == [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ]
        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        assert [(item["pk"]["S"], item["sk"]["S"]) for item in by_doc] == [
            ("ACME_CN#REVENUE", "FY#2024#TOTAL")
        ]


class TestTemplateContract:
    """The template keeps the deployment promises the code relies on."""

    def test_engine_routes_are_protected_by_iam_on_the_api(self) -> None:
        # GIVEN the template
        template = load_template()
        # WHEN the REST API's auth is read
        auth = template["Resources"]["RagspineApi"]["Properties"]["Auth"]
        # THEN IAM is the default authorizer (seed 000: no app-level auth on engine routes)
        assert auth["DefaultAuthorizer"] == "AWS_IAM"

    def test_every_function_gets_the_engine_layer_and_the_fact_table_name(self) -> None:
        # GIVEN the template
        template = load_template()
        functions = {
            logical_id: resource["Properties"]
            for logical_id, resource in template["Resources"].items()
            if resource["Type"] == "AWS::Serverless::Function"
        }
        # WHEN the functions' layers and the shared environment are read
        variables = template["Globals"]["Function"]["Environment"]["Variables"]
        # THEN each function loads the engine from the layer and finds the table by name
        assert functions
        for logical_id, props in functions.items():
            assert {"Ref": "EngineLayer"} in props.get("Layers", []), logical_id
        assert variables["RAGSPINE_FACTS_TABLE"] == {"Ref": "FactsTable"}


class TestChunkSearch:
    """The OpenSearch domain (optional) and who may call it."""

    @staticmethod
    def _search_actions(properties: dict[str, Any]) -> set[str]:
        actions: set[str] = set()
        for policy in properties.get("Policies", []):
            branch = policy.get("Fn::If", [None, {}])[1] if isinstance(policy, dict) else {}
            for statement in branch.get("Statement", []) if isinstance(branch, dict) else []:
                resources = statement.get("Resource")
                if "${SearchDomain.Arn}/ragspine-chunks*" in json.dumps(resources):
                    actions |= set(statement["Action"])
        return actions

    def test_every_function_that_searches_may_read_and_only_the_worker_may_write(self) -> None:
        # GIVEN the functions that build the retrieval pipeline (ask, workflow nodes, webhooks, ingestion)
        template = load_template()
        read = {"es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost"}
        granted = {name: self._search_actions(template["Resources"][name]["Properties"])
                   for name in ("AskFunction", "WorkflowFunction", "WebhookFunction", "WorkerFunction",
                                "IngestTriggerFunction")}
        # THEN readers get read actions, the worker also PUT and DELETE, the trigger nothing
        assert granted["AskFunction"] == granted["WorkflowFunction"] == granted["WebhookFunction"] == read
        assert granted["WorkerFunction"] == read | {"es:ESHttpPut", "es:ESHttpDelete"}
        assert granted["IngestTriggerFunction"] == set()

    def test_the_endpoint_reaches_every_function_only_when_the_domain_exists(self) -> None:
        template = load_template()
        endpoint = template["Globals"]["Function"]["Environment"]["Variables"]["RAGSPINE_OPENSEARCH_ENDPOINT"]
        assert endpoint == {"Fn::If": ["HasSearchDomain", {"Fn::Sub": "https://${SearchDomain.DomainEndpoint}"}, ""]}
        domain = template["Resources"]["SearchDomain"]
        assert domain["Condition"] == "HasSearchDomain"
        assert domain["Properties"]["DomainEndpointOptions"]["EnforceHTTPS"] is True
        assert domain["Properties"]["EncryptionAtRestOptions"]["Enabled"] is True
