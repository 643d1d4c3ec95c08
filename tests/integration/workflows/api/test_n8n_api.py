"""The n8n-compatible workflow API: X-N8N-API-KEY on every route, and n8n's CRUD semantics."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.workflow_api import EVENT_N8N_KEY, WorkflowApi, echo_n8n

BASE = "/api/v1/workflows"


def _routes(api: WorkflowApi) -> dict[str, tuple[str, str, Any]]:
    wid = api.dify_workflow.id
    return {"list": ("GET", BASE, None), "create": ("POST", BASE, echo_n8n()),
            "get": ("GET", f"{BASE}/{wid}", None), "put": ("PUT", f"{BASE}/{wid}", echo_n8n(name="new")),
            "delete": ("DELETE", f"{BASE}/{wid}", None), "activate": ("POST", f"{BASE}/{wid}/activate", None),
            "deactivate": ("POST", f"{BASE}/{wid}/deactivate", None)}


ROUTES = ["list", "create", "get", "put", "delete", "activate", "deactivate"]


def _create(api: WorkflowApi, body: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = api.client.post(BASE, json=body or echo_n8n(), headers=api.n8n())
    assert reply.status_code == 200, reply.text
    return reply.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("route", ROUTES)
class TestAuthOnEveryRoute:
    def test_no_key_is_401(self, api: WorkflowApi, route: str) -> None:
        method, path, body = _routes(api)[route]
        reply = api.client.request(method, path, json=body)
        assert reply.status_code == 401 and reply.json() == {"message": "'X-N8N-API-KEY' header required"}

    @pytest.mark.parametrize("key", ["wrong", EVENT_N8N_KEY, "app"])
    def test_a_wrong_key_is_401(self, api: WorkflowApi, route: str, key: str) -> None:
        method, path, body = _routes(api)[route]
        reply = api.client.request(method, path, json=body, headers=api.n8n(api.app_key if key == "app" else key))
        assert reply.status_code == 401 and reply.json() == {"message": "unauthorized"}

    def test_the_right_key_is_served(self, api: WorkflowApi, route: str) -> None:
        method, path, body = _routes(api)[route]
        assert api.client.request(method, path, json=body, headers=api.n8n()).status_code == 200


class TestCreate:
    def test_a_created_workflow_is_inactive_and_versioned(self, api: WorkflowApi) -> None:
        body = _create(api)
        assert body["active"] is False and body["versionId"] and len(body["id"]) == 16
        assert {"name", "nodes", "connections", "settings", "createdAt", "updatedAt"} <= set(body)

    def test_active_is_read_only(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, json={**echo_n8n(), "active": True}, headers=api.n8n())
        assert reply.status_code == 400 and reply.json() == {"message": "request/body/active is read-only"}

    @pytest.mark.parametrize("field", ["name", "nodes", "connections", "settings"])
    def test_required_fields(self, api: WorkflowApi, field: str) -> None:
        body = echo_n8n()
        del body[field]
        reply = api.client.post(BASE, json=body, headers=api.n8n())
        assert reply.status_code == 400
        assert reply.json()["message"] == f"request/body must have required property '{field}'"

    def test_unknown_settings_are_400(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, json={**echo_n8n(), "settings": {"nope": 1}}, headers=api.n8n())
        assert reply.status_code == 400 and "additional properties" in reply.json()["message"]

    def test_malformed_json_is_400(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, content=b"{nope", headers={**api.n8n(), "Content-Type": "application/json"})
        assert reply.status_code == 400 and reply.json()["message"].startswith("request/body")


class TestList:
    def test_seven_workflows_in_pages_of_three(self, api: WorkflowApi) -> None:
        api.components.store.delete(api.dify_workflow.id)
        created = {_create(api, echo_n8n(name=f"w{i}"))["id"] for i in range(7)}
        seen, sizes, cursor = [], [], None
        while True:
            params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
            page = api.client.get(BASE, params=params, headers=api.n8n()).json()
            sizes.append(len(page["data"]))
            seen.extend(w["id"] for w in page["data"])
            cursor = page["nextCursor"]
            if cursor is None:
                break
        assert sizes == [3, 3, 1] and set(seen) == created and len(seen) == 7

    def test_the_default_limit_is_100(self, api: WorkflowApi) -> None:
        page = api.client.get(BASE, headers=api.n8n()).json()
        assert len(page["data"]) == 1 and page["nextCursor"] is None

    @pytest.mark.parametrize("params", [{"limit": 251}, {"limit": 0}, {"limit": "many"}, {"cursor": "garbage!"}])
    def test_bad_limits_and_cursors_are_400(self, api: WorkflowApi, params: dict[str, Any]) -> None:
        reply = api.client.get(BASE, params=params, headers=api.n8n())
        assert reply.status_code == 400 and reply.json()["message"].startswith("request/query/")


class TestUpdate:
    def test_put_returns_a_new_version_id(self, api: WorkflowApi) -> None:
        created = _create(api)
        reply = api.client.put(f"{BASE}/{created['id']}", json=echo_n8n(name="renamed"), headers=api.n8n())
        body = reply.json()
        assert reply.status_code == 200 and body["name"] == "renamed"
        assert body["versionId"] != created["versionId"] and body["createdAt"] == created["createdAt"]

    def test_a_stale_version_id_is_409(self, api: WorkflowApi) -> None:
        created = _create(api)
        api.client.put(f"{BASE}/{created['id']}", json=echo_n8n(name="v2"), headers=api.n8n())
        stale = {**echo_n8n(name="v3"), "versionId": created["versionId"]}
        assert api.client.put(f"{BASE}/{created['id']}", json=stale, headers=api.n8n()).status_code == 409

    def test_put_refuses_active_too(self, api: WorkflowApi) -> None:
        created = _create(api)
        reply = api.client.put(f"{BASE}/{created['id']}", json={**echo_n8n(), "active": True}, headers=api.n8n())
        assert reply.status_code == 400 and reply.json()["message"] == "request/body/active is read-only"

    def test_unknown_ids_are_404(self, api: WorkflowApi) -> None:
        for method, body in (("GET", None), ("PUT", echo_n8n()), ("DELETE", None)):
            assert api.client.request(method, f"{BASE}/nope", json=body, headers=api.n8n()).status_code == 404


class TestLifecycle:
    def test_activate_deactivate_delete(self, api: WorkflowApi) -> None:
        created = _create(api)
        url = f"{BASE}/{created['id']}"
        active = api.client.post(f"{url}/activate", headers=api.n8n()).json()
        assert active["active"] is True and active["versionId"] == created["versionId"]
        assert api.client.get(url, headers=api.n8n()).json()["active"] is True
        assert api.client.post(f"{url}/deactivate", headers=api.n8n()).json()["active"] is False
        assert api.client.delete(url, headers=api.n8n()).json()["id"] == created["id"]
        assert api.client.get(url, headers=api.n8n()).status_code == 404

    def test_a_second_active_workflow_on_the_same_path_is_409(self, api: WorkflowApi) -> None:
        first, second = _create(api), _create(api, echo_n8n(name="twin"))
        api.client.post(f"{BASE}/{first['id']}/activate", headers=api.n8n())
        reply = api.client.post(f"{BASE}/{second['id']}/activate", headers=api.n8n())
        assert reply.status_code == 409 and "summarise" in reply.json()["message"]
