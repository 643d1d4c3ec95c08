"""Malformed input at the Gateway is a 400 in the envelope with ``retryable: false``, never a 500.

Each form came from an outside probe that got HTTP 500 with ``retryable: true``: JSON nested a
thousand deep, a lone UTF-16 surrogate in a name, a tag or a file name, a query integer written
with a Unicode digit or with more than 4,300 digits (also on the unauthenticated signed links),
and an assertion whose ``iat`` is a string. Hypothesis then varies the forms over every route.
"""

from __future__ import annotations

import json
import time
from typing import Any

import jwt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.contract import PREFIX, tools
from ragspine.knowledge.identity import dev_key
from tests.support.knowledge_api import Gateway, check_against_contract

pytestmark = pytest.mark.both_backends

EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])
DEEP = "[" * 1000 + "]" * 1000
SURROGATE = "a\udfffb"
HUGE = "9" * 4301
DIGIT_FORMS = ["²", "١", "３", "𝟙", "1²", "-1", "+1", " 1", "1e3", HUGE, "0" * 19 + "1"]


def _refused(response: Any, *, field: str | None = None) -> dict[str, Any]:
    """The response is the envelope's 400 KNOWLEDGE_INVALID_INPUT, not retryable; returns its error."""
    assert response.status_code == 400, response.text
    error = response.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and error["retryable"] is False, error
    if field is not None:
        assert field in [f["field"] for f in error["fieldErrors"]], error
    return error  # type: ignore[no-any-return]


def _send(gateway: Gateway, method: str, path: str, content: bytes | str, **headers: str) -> Any:
    """A raw body (the client's own JSON encoder cannot nest a thousand deep)."""
    sent = {**gateway.headers(), "Content-Type": "application/json", **headers}
    response = gateway.client.request(method, PREFIX + path, content=content, headers=sent)
    check_against_contract(method, PREFIX + path.split("?")[0], response.status_code, response.json())
    return response


def _body_paths() -> list[tuple[str, str]]:
    """Every contract route that takes a JSON body, with made-up ids (the body is checked first)."""
    ids = {"{knowledgeSpaceId}": "ks-none", "{documentId}": "doc-none", "{operationId}": "op-none"}
    found = []
    for tool in tools():
        if tool.request_schema is None:
            continue
        path = tool.path.removeprefix(PREFIX)
        for name, value in ids.items():
            path = path.replace(name, value)
        found.append((tool.method, path))
    return found


@pytest.mark.parametrize(("method", "path"), _body_paths())
def test_json_nested_a_thousand_deep_is_refused_on_every_body(gateway: Gateway, method: str, path: str) -> None:
    error = _refused(_send(gateway, method, path, '{"a": ' + DEEP + "}"))
    assert "deeper than" in error["message"]


def test_nan_and_numbers_past_the_digit_limit_are_refused(gateway: Gateway) -> None:
    for body in ('{"expectedVersion": NaN}', '{"expectedVersion": Infinity}', '{"expectedVersion": ' + HUGE + "}"):
        _refused(_send(gateway, "PATCH", "/spaces/ks-none", body))


def _space_body(**overrides: Any) -> dict[str, Any]:
    return {"code": "c1", "name": "ACME", "profileCode": "enterprise-long-document",
            "defaultSecurityDomainCode": "internal", **overrides}


def test_a_lone_surrogate_in_a_space_name_is_refused(gateway: Gateway) -> None:
    error = _refused(_send(gateway, "POST", "/spaces", json.dumps(_space_body(name=SURROGATE))), field="name")
    assert "surrogate" in error["message"]
    space = gateway.create_space()
    _refused(_send(gateway, "PATCH", f"/spaces/{space['knowledgeSpaceId']}",
                   json.dumps({"expectedVersion": 1, "name": SURROGATE})), field="name")
    assert gateway.ok("GET", f"/spaces/{space['knowledgeSpaceId']}", headers=gateway.headers(key=False))["name"] \
        == "ACME policies"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_a_body_not_in_utf8_is_refused_and_creates_nothing(gateway: Gateway, encoding: str) -> None:
    body = json.dumps(_space_body(code="c-wide", name="Wide")).encode(encoding)
    error = _refused(_send(gateway, "POST", "/spaces", body), field="body")
    assert "not UTF-8" in error["message"]
    listed = gateway.ok("GET", "/spaces")["items"]
    assert "c-wide" not in [space["code"] for space in listed]


def test_a_utf8_body_with_a_byte_order_mark_is_accepted(gateway: Gateway) -> None:
    body = b"\xef\xbb\xbf" + json.dumps(_space_body(code="c-bom", name="Marked")).encode("utf-8")
    response = _send(gateway, "POST", "/spaces", body)
    assert response.status_code == 201, response.text
    assert response.json()["data"]["name"] == "Marked"


def test_a_lone_surrogate_in_a_document_name_tag_or_file_name_is_refused(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    _refused(_send(gateway, "POST", f"/spaces/{space}/file-resources",
                   json.dumps({"fileName": f"{SURROGATE}.md", "mimeType": "text/markdown", "fileSize": 5})),
             field="fileName")
    resource = gateway.file_resource(space, b"# a\n\nbody\n")
    upload = f"/spaces/{space}/documents"
    _refused(_send(gateway, "POST", upload, json.dumps({"fileResourceId": resource, "documentName": SURROGATE})),
             field="documentName")
    _refused(_send(gateway, "POST", upload, json.dumps({"fileResourceId": resource, "documentName": "d",
                                                         "metadata": {"tags": ["ok", SURROGATE]}})),
             field="metadata.tags[1]")
    _refused(_send(gateway, "POST", upload, json.dumps({"fileResourceId": resource, "documentName": "d",
                                                         SURROGATE: 1})))
    _refused(_send(gateway, "POST", "/search", json.dumps({"query": SURROGATE})), field="query")
    change = gateway.upload(space)
    _refused(_send(gateway, "PATCH", f"/documents/{change['documentId']}",
                   json.dumps({"expectedVersion": 0, "metadata": {"category": SURROGATE}})),
             field="metadata.category")


@pytest.mark.parametrize("value", DIGIT_FORMS)
def test_a_query_integer_must_be_ascii_digits_of_bounded_length(gateway: Gateway, value: str) -> None:
    for name in ("page", "pageSize"):
        _refused(gateway.call("GET", "/spaces", params={name: value}, headers=gateway.headers(key=False)),
                 field=name)
    citation = "/documents/doc-none/citations/cit-none"
    for name in ("contextBefore", "contextAfter"):
        _refused(gateway.call("GET", citation, params={"versionId": "ver-1", name: value},
                              headers=gateway.headers(key=False)), field=name)


@EMBEDDED_ONLY
@pytest.mark.parametrize("value", DIGIT_FORMS)
def test_the_signed_links_refuse_a_malformed_expiry(gateway: Gateway, value: str) -> None:
    for path, method in ((f"{PREFIX}/file-resources/fr-1/content", "PUT"), (f"{PREFIX}/downloads/ver-1", "GET")):
        response = gateway.client.request(method, path, params={"expires": value, "signature": "0" * 64},
                                          content=b"x" if method == "PUT" else None)
        check_against_contract(method, path, response.status_code, response.json())
        _refused(response)


def _assertion(gateway: Gateway, **claims: Any) -> str:
    now = int(time.time())
    payload = {"sub": "admin", "roles": ["knowledge-admin"], "departments": [], "securityDomains": ["internal"],
               "iss": gateway.settings.knowledge_assertion_issuer, "aud": gateway.settings.knowledge_assertion_audience,
               "iat": now, "exp": now + 300, **claims}
    return jwt.encode(payload, dev_key(gateway.settings.data_dir), algorithm="HS256")


@pytest.mark.parametrize("claims", [
    {"iat": str(int(time.time()))}, {"exp": str(int(time.time()) + 300)}, {"iat": True}, {"nbf": "0"},
    {"iat": [1]}, {"exp": None}, {"exp": 10 ** 400}, {"nbf": -(10 ** 400)}, {"sub": 7}, {"sub": "a" * 300}, {"sub": "admin\x00"}, {"roles": "knowledge-admin"},
])
def test_an_assertion_with_a_mistyped_claim_is_unauthenticated(gateway: Gateway, claims: dict[str, Any]) -> None:
    response = gateway.call("GET", "/spaces", headers=gateway.headers(key=False,
                                                                      **{"X-User-Assertion": _assertion(gateway,
                                                                                                        **claims)}))
    assert response.status_code == 401, response.text
    error = response.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_UNAUTHENTICATED" and error["retryable"] is False


# --- fuzzing: the forms above, varied, over every route that takes a body or a query integer ---

_HOSTILE_TEXT = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
    st.builds(lambda a, s, b: a + s + b, st.text(max_size=8),
              st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), st.text(max_size=8)),
    st.sampled_from(["\x00", "\u200b", "\u202e", "\ufeff", "²", HUGE]),
)
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _HOSTILE_TEXT,
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_HOSTILE_TEXT, inner, max_size=3),
                     max_leaves=12)


@st.composite
def _bodies(draw: st.DrawFn) -> str:
    """A body a client might send: a mutated valid shape, hostile strings, or very deep nesting."""
    kind = draw(st.sampled_from(["mutated", "any", "deep"]))
    if kind == "deep":
        depth = draw(st.integers(min_value=33, max_value=3000))
        return '{"a": ' + "[" * depth + "]" * depth + "}"
    if kind == "any":
        return json.dumps(draw(_JSON))
    base = {"name": "n", "documentName": "d", "fileName": "a.md", "mimeType": "text/markdown", "fileSize": 4,
            "expectedVersion": 1, "query": "q", "reason": "r", "code": "c", "metadata": {"tags": ["t"]}}
    key = draw(st.sampled_from(sorted(base)))
    return json.dumps({**base, key: draw(_JSON)})


@EMBEDDED_ONLY
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(route=st.sampled_from(_body_paths()), body=_bodies())
def test_fuzzed_bodies_never_fail_the_server(gateway: Gateway, route: tuple[str, str], body: str) -> None:
    response = _send(gateway, route[0], route[1], body)
    assert response.status_code < 500, response.text
    assert response.json()["meta"]["error"]["retryable"] is False


_INTEGER_TEXT = st.one_of(
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6),
    st.integers(min_value=-10, max_value=10**30).map(str),
    st.integers(min_value=4290, max_value=5000).map(lambda n: "1" * n),
    st.text(max_size=6),
)


@EMBEDDED_ONLY
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(["page", "pageSize", "contextBefore", "expires"]), value=_INTEGER_TEXT)
def test_fuzzed_query_integers_never_fail_the_server(gateway: Gateway, name: str, value: str) -> None:
    if name == "expires":
        for method, path in (("PUT", f"{PREFIX}/file-resources/fr-1/content"), ("GET", f"{PREFIX}/downloads/v-1")):
            response = gateway.client.request(method, path, params={"expires": value, "signature": "ab"})
            assert response.status_code in (400, 403, 404), response.text
            assert response.json()["meta"]["error"]["retryable"] is False
        return
    path = "/documents/doc-none/citations/cit-none" if name == "contextBefore" else "/spaces"
    response = gateway.call("GET", path, params={name: value, "versionId": "v-1"} if name == "contextBefore"
                            else {name: value}, headers=gateway.headers(key=False))
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["meta"]["error"]["retryable"] is False


# --- names, tags and ids: visible text, bounded ---

INVISIBLE_OR_HOSTILE = ["a\x00b", "a\tb", "line\nbreak", "a\u2028b", "\u200b", "\u200b\u200c\u2060", "\ufeff ",
                        "\u3164", "evil\u202egpj.md", "x\u2066y\u2069", "\x85", "\U000e0041\U000e0042", "\U000e0100",
                        "\U0001d173", "\U0001bca0", "Report" + "".join(chr(0xE0000 + ord(c)) for c in "IGNORE"),
                        "\ufff9\ufffa\ufffb", "\U00013430\U00013438", "\ue000", "\u0600 "]


@pytest.mark.parametrize("name", INVISIBLE_OR_HOSTILE)
def test_names_refuse_control_zero_width_only_and_bidi_override_characters(gateway: Gateway, name: str) -> None:
    error = _refused(gateway.call("POST", "/spaces", _space_body(code="c-x", name=name)), field="name")
    assert any(rule in error["message"] for rule in ("control", "visible", "bidirectional", "tag characters"))
    space = gateway.create_space()["knowledgeSpaceId"]
    _refused(gateway.call("POST", f"/spaces/{space}/file-resources",
                          {"fileName": f"{name}.md", "mimeType": "text/markdown", "fileSize": 5}), field="fileName")
    resource = gateway.file_resource(space, b"# a\n\nbody\n")
    upload = f"/spaces/{space}/documents"
    _refused(gateway.call("POST", upload, {"fileResourceId": resource, "documentName": name}), field="documentName")
    response = gateway.call("POST", upload, {"fileResourceId": resource, "documentName": "d",
                                             "metadata": {"tags": ["fine", name]}})
    assert response.status_code == 400
    error = response.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_METADATA_VALUE_INVALID" and error["retryable"] is False
    assert [f["field"] for f in error["fieldErrors"]] == ["metadata.tags[1]"]


@pytest.mark.parametrize("name", ["ACME 政策", "عربي\u200f", "👩\u200d👩\u200d👧 family", "a\u200bb", " padded ",
                                  "葛\U000e0100城"])
def test_names_of_visible_text_with_joiners_and_marks_are_accepted(gateway: Gateway, name: str) -> None:
    space = gateway.create_space(name=name)
    assert space["name"] == name
    change = gateway.upload(space["knowledgeSpaceId"], name=name, metadata={"tags": [name.strip()]},
                            file_name=f"{name.strip()}.md")
    assert change["documentId"]


def test_a_ten_thousand_character_id_is_refused_and_never_logged_verbatim(gateway: Gateway) -> None:
    long_id = "d" * 10_000
    for method, path, body in (("GET", f"/documents/{long_id}", None),
                               ("POST", f"/documents/{long_id}:reindex", {"expectedVersion": 0}),
                               ("PATCH", f"/spaces/{long_id}", {"expectedVersion": 1, "name": "n"}),
                               ("GET", f"/spaces/{long_id}/documents", None)):
        headers = gateway.headers(key=None if method != "GET" else False)
        _refused(gateway.call(method, path, body, headers=headers))
    _refused(gateway.call("POST", "/documents/bad%0Aid:reindex", {"expectedVersion": 0}))
    entries = get_knowledge_gateway().store.audit(limit=50)
    assert entries, "the refused mutations are audited"
    for entry in entries:
        for value in (entry.user_id, entry.resource, entry.request_id, entry.tool_call_id, entry.session_id):
            assert len(value) <= 256 and "\n" not in value
    assert any(entry.resource.startswith("d" * 200) and entry.resource.endswith("…") for entry in entries)
    assert any(entry.resource == "bad\\u000aid" for entry in entries)
