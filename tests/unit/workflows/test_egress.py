"""http-request egress: allowlist first, then only public addresses after resolution; no network."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.errors import WorkflowEgressDeniedError
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.run.egress import check_egress, host_allowed
from ragspine.workflows.run.execute import RunStatus, WorkflowExecutor
from ragspine.workflows.run.http_node import HttpPolicy
from tests.unit.workflows.samples import dsl, edge, end, http, start

ALLOW = ("api.example.com", "*.example.org", "127.0.0.1", "169.254.169.254", "10.1.2.3", "metadata.example.com")


def resolver_to(*addresses: str) -> Any:
    def resolve(host: str, port: int) -> list[str]:
        return list(addresses)

    return resolve


class TestCheckEgress:
    @pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://169.254.169.254/latest/meta-data/",
                                     "http://10.1.2.3:8080/x", "http://[::1]/", "http://[::ffff:127.0.0.1]/"])
    def test_private_loopback_link_local_and_metadata_literals_are_refused(self, url: str) -> None:
        with pytest.raises(WorkflowEgressDeniedError):
            check_egress(url, allowlist=(*ALLOW, "::1", "::ffff:127.0.0.1"), resolver=resolver_to("93.184.216.34"))

    @pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.5", "192.168.1.1", "169.254.169.254", "100.64.0.1",
                                         "0.0.0.0", "fd00:ec2::254", "fe80::1"])
    def test_names_resolving_to_non_public_addresses_are_refused(self, address: str) -> None:
        with pytest.raises(WorkflowEgressDeniedError, match="non-public"):
            check_egress("https://metadata.example.com/", allowlist=ALLOW, resolver=resolver_to(address))

    def test_one_private_answer_among_public_ones_is_enough_to_refuse(self) -> None:
        with pytest.raises(WorkflowEgressDeniedError):
            check_egress("https://api.example.com/", allowlist=ALLOW, resolver=resolver_to("93.184.216.34", "10.0.0.1"))

    def test_hosts_off_the_allowlist_are_refused_before_resolution(self) -> None:
        def never(host: str, port: int) -> list[str]:
            raise AssertionError("must not resolve")

        with pytest.raises(WorkflowEgressDeniedError, match="allowlist"):
            check_egress("https://evil.example.net/", allowlist=ALLOW, resolver=never)

    @pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://api.example.com/", "https://user:pw@api.example.com/"])
    def test_other_schemes_and_embedded_credentials_are_refused(self, url: str) -> None:
        with pytest.raises(WorkflowEgressDeniedError):
            check_egress(url, allowlist=ALLOW, resolver=resolver_to("93.184.216.34"))

    def test_a_public_allowlisted_host_passes_with_its_address(self) -> None:
        target = check_egress("https://api.example.com/v1?q=1", allowlist=ALLOW, resolver=resolver_to("93.184.216.34"))
        assert (target.host, target.port, target.address) == ("api.example.com", 443, "93.184.216.34")

    def test_allowlist_matching(self) -> None:
        assert host_allowed("a.b.example.org", ALLOW) and host_allowed("example.org", ALLOW)
        assert not host_allowed("example.org.evil.com", ALLOW) and not host_allowed("xapi.example.com", ALLOW)


class TestHttpNode:
    def _run(self, url: str, handler: Any) -> Any:
        plan = compile_plan(read_dsl(dsl(
            [start("query"), http("api", url), end(("status", ["api", "status_code"]), ("body", ["api", "body"]))],
            [edge("start", "api"), edge("api", "end")])))
        policy = HttpPolicy(allowlist=ALLOW, resolver=resolver_to("93.184.216.34"),
                            transport=httpx.MockTransport(handler))
        return WorkflowExecutor(http=policy).run(plan, {"query": "cats"})

    def test_the_request_goes_to_the_checked_address_with_the_original_host(self) -> None:
        seen: list[httpx.Request] = []

        def handler(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return httpx.Response(200, text="found")

        result = self._run("https://api.example.com/search", handler)
        assert result.status is RunStatus.SUCCEEDED and result.outputs == {"status": 200, "body": "found"}
        assert seen[0].url.host == "93.184.216.34" and seen[0].headers["host"] == "api.example.com"
        assert seen[0].url.params["q"] == "cats" and seen[0].extensions["sni_hostname"] == "api.example.com"

    def test_a_refused_destination_fails_the_run_without_a_request(self) -> None:
        seen: list[httpx.Request] = []

        def handler(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return httpx.Response(200)

        result = self._run("http://169.254.169.254/latest/", handler)
        assert result.status is RunStatus.FAILED and result.error_code == "WORKFLOW_EGRESS_DENIED" and seen == []

    def test_oversized_responses_fail(self) -> None:
        result = self._run("https://api.example.com/big", lambda r: httpx.Response(200, content=b"x" * (2 << 20)))
        assert result.status is RunStatus.FAILED and "exceeds" in (result.error or "")
