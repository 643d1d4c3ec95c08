"""What schemathesis found, one test each: the routes and the published OpenAPI agree."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.workflow_api import WorkflowApi, echo_n8n

BASE = "/api/v1/workflows"


def _openapi(api: WorkflowApi) -> dict[str, Any]:
    return api.client.get("/openapi.json").json()  # type: ignore[no-any-return]


class TestMethodNotAllowed:
    @pytest.mark.parametrize(("path", "allow"), [
        ("/v1/ask", "POST"), ("/healthz", "GET"), (f"{BASE}/abc", "DELETE, GET, PUT"), (BASE, "GET, POST"),
        (f"{BASE}/abc/activate", "POST"), ("/webhook/anything", "GET, POST")])
    def test_a_405_lists_every_published_method_of_the_path(self, api: WorkflowApi, path: str, allow: str) -> None:
        reply = api.client.request("TRACE", path, headers=api.n8n())
        assert reply.status_code == 405 and reply.headers["allow"] == allow
        published = {m.upper() for m in _openapi(api)["paths"][path.replace("abc", "{workflow_id}")
                                                                .replace("anything", "{path}")]}
        assert set(allow.split(", ")) == published

    def test_webhook_methods_outside_the_allowlist_are_not_published(self, api: WorkflowApi) -> None:
        assert set(_openapi(api)["paths"]["/webhook/{path}"]) == {"get", "post"}
        reply = api.client.delete("/webhook/summarise")
        assert reply.status_code == 405 and reply.headers["allow"] == "GET, POST"


class TestOrdinaryRoutes:
    @pytest.mark.parametrize("route", ["compile", "preview", "analyze", "convert", "scaffold"])
    def test_an_empty_body_is_refused_and_the_schema_says_so(self, api: WorkflowApi, route: str) -> None:
        reply = api.client.post(f"/v1/workflows/{route}", json={})
        assert reply.status_code == 400
        operation = _openapi(api)["paths"][f"/v1/workflows/{route}"]["post"]
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert {"required": ["text"]} in _openapi(api)["components"]["schemas"][ref]["oneOf"]
        assert "422" in operation["responses"]

    def test_an_explicit_null_is_refused_like_the_schema_says(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/compile", json={"text": "Translate {{text}}", "document": None})
        assert reply.status_code == 400 and "document" in reply.text

    def test_the_catalog_language_is_an_enum(self, api: WorkflowApi) -> None:
        assert api.client.get("/v1/catalog/search", params={"q": "翻译", "lang": ""}).status_code == 400
        params = _openapi(api)["paths"]["/v1/catalog/search"]["get"]["parameters"]
        lang = next(p for p in params if p["name"] == "lang")["schema"]["anyOf"][0]
        assert lang["enum"] == ["zh", "en", "ja"]

    def test_a_missing_catalog_entry_is_a_documented_404(self, api: WorkflowApi) -> None:
        assert api.client.get("/v1/catalog/no-such-entry").status_code == 404
        assert "404" in _openapi(api)["paths"]["/v1/catalog/{entry_id}"]["get"]["responses"]


class TestN8nBodies:
    @pytest.mark.parametrize(("settings", "nodes"), [
        ({"callerPolicy": {}}, None), ({"saveDataErrorExecution": []}, None), ({}, [{"name": {}, "type": "x"}]),
        ({}, [{"name": "a", "type": "x", "parameters": False}])])
    def test_wrong_types_are_400_not_500(self, api: WorkflowApi, settings: dict[str, Any],
                                         nodes: list[Any] | None) -> None:
        body = {**echo_n8n(), "settings": settings, **({"nodes": nodes} if nodes is not None else {})}
        reply = api.client.post(BASE, json=body, headers=api.n8n())
        assert reply.status_code == 400 and set(reply.json()) == {"message"}

    def test_a_whole_number_written_as_a_float_is_an_integer(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, json={**echo_n8n(), "settings": {"executionTimeout": 787.0}}, headers=api.n8n())
        assert reply.status_code == 200, reply.text

    def test_a_body_that_is_not_utf8_is_400_in_n8n_shape(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, content=b'{"name": "\xeb"}', headers={**api.n8n(),
                                                                           "Content-Type": "application/json"})
        assert reply.status_code == 400 and set(reply.json()) == {"message"}

    def test_the_create_body_schema_names_the_required_fields(self, api: WorkflowApi) -> None:
        body = _openapi(api)["paths"][BASE]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body["required"] == ["name", "nodes", "connections", "settings"]
        assert body["additionalProperties"] is False and "active" not in body["properties"]


class TestPeerErrorShapes:
    def test_dify_routes_document_difys_error_body(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", content=b"not json", headers=api.dify())
        assert reply.status_code == 400 and set(reply.json()) == {"code", "message", "status"}
        documented = _openapi(api)["paths"]["/v1/workflows/run"]["post"]["responses"]["400"]
        assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/DifyError")

    def test_the_keys_are_published_as_security_schemes(self, api: WorkflowApi) -> None:
        schema = _openapi(api)
        assert schema["paths"]["/v1/info"]["get"]["security"] == [{"DifyAppKey": []}]
        assert schema["paths"][BASE]["get"]["security"] == [{"N8nApiKey": []}]

    def test_a_webhook_path_with_a_line_break_gets_the_webhook_404(self, api: WorkflowApi) -> None:
        reply = api.client.post("/webhook/a%0Ab")
        assert reply.status_code == 404 and set(reply.json()) == {"code", "message"}


def test_duplicate_node_names_are_422_since_no_schema_can_forbid_them(api: WorkflowApi) -> None:
    body = echo_n8n()
    body["nodes"][1]["name"] = body["nodes"][0]["name"]
    reply = api.client.post(BASE, json=body, headers=api.n8n())
    assert reply.status_code == 422 and reply.json() == {
        "message": "request/body/nodes/1/name must be unique (connections use names)"}
    assert "422" in _openapi(api)["paths"][BASE]["post"]["responses"]


def test_a_put_with_a_null_version_id_is_unconditional(api: WorkflowApi) -> None:
    created = api.client.post(BASE, json=echo_n8n(), headers=api.n8n()).json()
    reply = api.client.put(f"{BASE}/{created['id']}", json={**echo_n8n(name="renamed"), "versionId": None},
                           headers=api.n8n())
    assert reply.status_code == 200 and reply.json()["name"] == "renamed"
