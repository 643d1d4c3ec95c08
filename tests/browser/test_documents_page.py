"""The documents page drives the Knowledge Gateway with its own identity: upload, watch the stages, disable."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from typing import Any

import httpx
import pytest

from tests.browser.conftest import Service
from tests.support.cfn import REPO_ROOT

expect = pytest.importorskip("playwright.sync_api").expect

POLICY = ("# ACME remote work policy\n\nACME staff may work remotely up to three days a week.\n\n"
          "## Equipment\n\nThe company lends each remote worker one laptop and one monitor.\n")


def _cli(service: Service, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGSPINE_")}
    env["RAGSPINE_DATA_DIR"] = str(service.data_dir)
    done = subprocess.run([sys.executable, "-m", "ragspine", "knowledge", *args], env=env, capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout.strip().splitlines()[-1]


def test_upload_shows_each_stage_and_the_document_can_be_disabled(acme: Service, open_page: Any) -> None:
    token = _cli(acme, "token", "create", "--name", f"page-{uuid.uuid4().hex[:6]}")
    assertion = _cli(acme, "assertion", "--user", "maintainer", "--roles", "knowledge-admin", "--domains", "internal")
    headers = {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion, "Idempotency-Key": uuid.uuid4().hex}
    space = httpx.post(f"{acme.url}/internal/v1/knowledge/spaces", headers=headers, timeout=30, json={
        "code": f"hr-{uuid.uuid4().hex[:6]}", "name": "HR policies", "profileCode": "enterprise-long-document",
        "defaultSecurityDomainCode": "internal"})
    assert space.status_code == 201, space.text

    ui = open_page(acme)
    ui.page.goto(acme.url + "/documents")
    ui.page.wait_for_selector("body[data-ready=true]")
    ui.page.fill("#token", token)
    ui.page.fill("#assertion", assertion)
    ui.page.click("#login button[type=submit]")
    ui.page.wait_for_selector("#workspace:not([hidden])")
    ui.page.select_option("#space", space.json()["data"]["knowledgeSpaceId"])
    ui.page.set_input_files("#file", files=[{"name": "remote-work.md", "mimeType": "text/markdown",
                                            "buffer": POLICY.encode()}])
    ui.page.click("#upload button[type=submit]")
    expect(ui.page.locator("#progress li").last).to_have_text(re.compile("^ready: searchable"), timeout=90_000)
    stages = ui.page.locator("#progress li").all_inner_texts()
    assert stages[0] == "sending the file" and len(stages) >= 2
    row = ui.page.locator("#documents tr", has_text="remote-work.md")
    expect(row.locator("td").nth(2)).to_have_text("yes")
    ui.shot("documents")
    from tests.browser.axe import run_axe

    assert run_axe(ui.page) == []
    # Searchable now, through the Gateway's own search.
    found = httpx.post(f"{acme.url}/internal/v1/knowledge/search", timeout=30,
                       headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                       json={"query": "work remotely three days a week",
                             "knowledgeSpaceIds": [space.json()["data"]["knowledgeSpaceId"]]})
    assert found.status_code == 200, found.text
    assert "three days a week" in found.text
    # Replace: the next version goes through the same stages and becomes the active one.
    with ui.page.expect_file_chooser() as chooser:
        row.locator("button[data-action=replace]").click()
    chooser.value.set_files(files=[{"name": "remote-work.md", "mimeType": "text/markdown",
                                    "buffer": POLICY.replace("three", "four").encode()}])
    expect(ui.page.locator("#progress li").last).to_have_text(re.compile("^ready: searchable"), timeout=90_000)
    expect(row.locator("td").nth(1)).to_have_text("2")
    document_id = row.get_attribute("data-document")
    evidence = f"{acme.url}/v1/evidence"
    shown = httpx.get(evidence, params={"doc": document_id, "locator": "heading=Equipment,para=1"}).json()
    assert shown["status"] == "shown" and "laptop" in shown["text"]
    row.locator("button.action").first.click()  # disable, with the lockVersion just read
    expect(row.locator("td").first).to_have_text("DISABLED")
    expect(row.locator("td").nth(2)).to_have_text("no")
    # Disabled: the evidence view withholds it, as no answer may quote it; deleted: it is gone.
    withheld = httpx.get(evidence, params={"doc": document_id, "locator": "heading=Equipment,para=1"}).json()
    assert withheld["status"] == "withheld" and withheld["text"] == ""
    ui.page.on("dialog", lambda dialog: dialog.accept())
    row.locator("button[data-action=Delete]").click()
    expect(ui.page.locator(f"#documents tr[data-document='{document_id}']")).to_have_count(0)
    assert httpx.get(evidence, params={"doc": document_id, "locator": "heading=Equipment,para=1"}).status_code == 404


WORKBOOK = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Quarterly_Revenue.xlsx"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _connected_page(acme: Service, open_page: Any, code: str) -> Any:
    """The documents page connected with a fresh admin identity, on a new space of its own."""
    token = _cli(acme, "token", "create", "--name", f"page-{uuid.uuid4().hex[:6]}")
    assertion = _cli(acme, "assertion", "--user", "maintainer", "--roles", "knowledge-admin", "--domains", "internal")
    headers = {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion, "Idempotency-Key": uuid.uuid4().hex}
    space = httpx.post(f"{acme.url}/internal/v1/knowledge/spaces", headers=headers, timeout=30, json={
        "code": f"{code}-{uuid.uuid4().hex[:6]}", "name": "Finance", "profileCode": "enterprise-long-document",
        "defaultSecurityDomainCode": "internal"})
    assert space.status_code == 201, space.text
    ui = open_page(acme)
    ui.page.goto(acme.url + "/documents")
    ui.page.wait_for_selector("body[data-ready=true]")
    ui.page.fill("#token", token)
    ui.page.fill("#assertion", assertion)
    ui.page.click("#login button[type=submit]")
    ui.page.wait_for_selector("#workspace:not([hidden])")
    ui.page.select_option("#space", space.json()["data"]["knowledgeSpaceId"])
    return ui


def test_details_show_the_runs_warnings_pages_per_second_facts_and_passages(acme: Service, open_page: Any) -> None:
    ui = _connected_page(acme, open_page, "fin")
    ui.page.set_input_files("#file", files=[{"name": WORKBOOK.name, "mimeType": XLSX,
                                            "buffer": WORKBOOK.read_bytes()}])
    ui.page.click("#upload button[type=submit]")
    # live progress: the ready line carries the pages parsed and the rate
    expect(ui.page.locator("#progress li").last).to_have_text(
        re.compile(r"^ready: searchable \(100%\) · 2 pages, [0-9.]+ pages/s$"), timeout=90_000)
    row = ui.page.locator("#documents tr", has_text=WORKBOOK.name)
    details = row.locator("button[data-action=details]")
    details.click()
    expect(details).to_have_attribute("aria-expanded", "true")
    panel = ui.page.locator("tr.details-row")
    expect(panel.locator(".run")).to_have_text(re.compile(r"^Version 1 · 2 pages, [0-9.]+ pages/s$"))
    # the warnings of the run, one per worksheet table: read, but no fact published, and why
    warnings = panel.locator("ul.warnings li")
    expect(warnings).to_have_count(2)
    expect(warnings.first).to_contain_text("sheet=2024: no facts published from the 12 figures read")
    expect(panel.locator("p.facts")).to_contain_text("None published")
    # passages preview through the Gateway's search, limited to this document
    panel.locator("input[type=search]").fill("Mainland China revenue 2024")
    panel.locator("form.preview button[type=submit]").click()
    expect(panel.locator("li.passage").first).to_contain_text("298")
    ui.shot("documents-details")
    from tests.browser.axe import run_axe

    assert run_axe(ui.page) == []
    details.click()
    expect(ui.page.locator("tr.details-row")).to_have_count(0)
