"""axe-core, as shipped inside the pinned ``axe-playwright-python`` wheel, checked by hash before it runs."""

from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any

AXE_VERSION = "4.12.1"
AXE_SHA256 = "84494fec757e4710dc751c8d7a636e457f4532f08f85c86dc9070133fbff53bc"
# WCAG 2.0-2.2 A and AA rules (the level the page promises).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_source() -> str:
    """The axe-core script; refuses a file whose hash is not the pinned one."""
    data = (resources.files("axe_playwright_python") / "axe.min.js").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != AXE_SHA256:
        raise AssertionError(f"axe.min.js has sha256 {digest}, not the pinned {AXE_SHA256} (axe-core {AXE_VERSION}); "
                             "check the new version and update the pin")
    return data.decode("utf-8")


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Violations on the page as it is now: rule id, impact and the offending nodes' selectors."""
    page.evaluate(axe_source())  # evaluated over the DevTools protocol: the page's CSP does not apply
    result = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result["violations"]]
