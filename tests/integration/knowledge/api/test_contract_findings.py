"""What schemathesis found on the Gateway: 405s name the contract's methods, actions are not ids, names need a stem,
and the contract's patterns mean the same in ECMA-262 (JSON Schema) and Python (the Gateway's validator)."""

from __future__ import annotations

import pytest

from ragspine.knowledge.contract import schema_validator
from tests.support.knowledge_api import BASE, Gateway


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("OPTIONS", "/spaces", "GET, POST"),
    ("PUT", "/spaces/ks-1", "DELETE, GET, PATCH"),
    ("OPTIONS", "/documents/d-1", "DELETE, GET, PATCH"),
    ("PATCH", "/documents/d-1:enable", "POST"),
    ("GET", "/documents/d-1:replace", "POST"),
    ("DELETE", "/operations/op-1:cancel", "POST"),
    ("PUT", "/spaces/ks-1/documents", "GET, POST"),
])
def test_an_undeclared_method_is_405_with_the_contracts_methods(gateway: Gateway, method: str, path: str,
                                                                 allowed: str) -> None:
    reply = gateway.client.request(method, BASE + path, headers=gateway.headers(), json={})
    assert reply.status_code == 405 and reply.headers["allow"] == allowed


def test_a_document_id_never_swallows_an_action(gateway: Gateway) -> None:
    reply = gateway.client.get(BASE + "/documents/d-1:enable", headers=gateway.headers())
    assert reply.status_code == 405  # GET of the :enable action, not GET of a document "d-1:enable"


@pytest.mark.parametrize(("name", "valid"), [("report.pdf", True), ("..pdf", True), ("a/b.PDF", True),
                                             (".pdf", False), ("notes/.md", False), ("report.exe", False)])
def test_the_contract_accepts_exactly_the_names_the_gateway_ingests(gateway: Gateway, name: str,
                                                                    valid: bool) -> None:
    body = {"fileName": name, "fileSize": 3, "mimeType": "application/pdf"}
    assert schema_validator("FileResourceCreateRequest").is_valid(body) is valid
    space = gateway.create_space()["knowledgeSpaceId"]
    reply = gateway.call("POST", f"/spaces/{space}/file-resources", body)
    assert (reply.status_code == 201) is valid, reply.text


# ECMA-262's \s (what JSON Schema patterns mean, and what generators such as schemathesis read) lacks the
# information separators U+001C..U+001F and NEL, which Python's \s (the Gateway's validator) includes.
_ECMA_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"


def _patterns(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return own + [p for value in node.values() for p in _patterns(value)]
    if isinstance(node, list):
        return [p for value in node for p in _patterns(value)]
    return []


def _as_ecma(pattern: str) -> str:
    """``pattern`` with ECMA-262's whitespace spelt out, so Python's ``re`` reads it as JSON Schema does."""
    out, in_class, i = [], False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escape = pattern[i:i + 2]
            if escape == "\\s":
                out.append(_ECMA_SPACE if in_class else f"[{_ECMA_SPACE}]")
            elif escape == "\\S":
                assert not in_class, f"\\S inside a class cannot be spelt out: {pattern}"
                out.append(f"[^{_ECMA_SPACE}]")
            else:
                out.append(escape)
            i += 2
            continue
        in_class = (in_class or char == "[") and not (in_class and char == "]")
        out.append(char)
        i += 1
    return "".join(out)


@pytest.mark.parametrize("text", ["\x1c", "\x1e", "\x1f", "\x85", "a", " b ", "\u00a0"])
def test_every_pattern_means_the_same_in_ecma_and_python(text: str) -> None:
    import re

    from ragspine.knowledge.contract import load_contract

    for pattern in set(_patterns(load_contract())):
        assert bool(re.search(pattern, text)) == bool(re.search(_as_ecma(pattern), text)), (pattern, text)


def test_a_name_of_only_a_separator_is_refused_by_contract_and_gateway(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    body = {"documentName": "\x1e", "fileResourceId": "fr-1"}
    assert not schema_validator("DocumentUploadRequest").is_valid(body)
    assert gateway.call("POST", f"/spaces/{space}/documents", body).status_code == 400
