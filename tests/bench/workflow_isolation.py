"""What workflow hardening costs: the code jail against a plain child process, templates against the bare sandbox.

Templates four ways: the bare sandbox in this process (the baseline), the step budget in this
process, a render as the service does it (``render_jinja``: a limited child forked from the warm
parent, running the budget first), and the same render in a cold child (a fresh interpreter that
imports Jinja2 each time: what the warm parent saves). A normal template is a 500-row loop.

Benchmarks, not tests: each cost is a ratio against its baseline measured in the same run,
interleaved in blocks so machine noise lands on both. Run on Linux as root (the jail needs it):

    .venv/bin/python tests/bench/workflow_isolation.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import sample_interleaved, summarize_ns  # noqa: E402

CODE = "def main(x):\n    return {'y': x * 2}"
TEMPLATE = "{% for row in rows %}{{ loop.index }}. {{ row.name | title }}: {{ row.value }}\n{% endfor %}"
ROWS = [{"name": f"metric {i}", "value": i * 1.5} for i in range(500)]


def run(*, quick: bool) -> dict[str, Any]:
    """Median and p99 of each path and the ratio of each hardened path to its baseline."""
    from jinja2.sandbox import SandboxedEnvironment

    from ragspine.workflows.run.code_node import CodeLimits, execute_python
    from ragspine.workflows.run.nodes import (
        MAX_TEMPLATE_OUTPUT,
        TEMPLATE_MAX_STEPS,
        TEMPLATE_TIMEOUT_SECONDS,
        render_jinja,
    )
    from ragspine.workflows.run.template_budget import render_bounded
    from ragspine.workflows.run.template_child import TemplateLimits, render_in_child

    jail, plain = CodeLimits(), CodeLimits(isolation="process")
    code = sample_interleaved({"code_process": lambda i: execute_python(CODE, {"x": i}, plain),
                               "code_jail": lambda i: execute_python(CODE, {"x": i}, jail)},
                              n=10 if quick else 40, warmup=2, block=5)

    def bare(_: int) -> str:
        environment = SandboxedEnvironment(autoescape=False, keep_trailing_newline=True)
        return environment.from_string(TEMPLATE).render(rows=ROWS)

    def budgeted(_: int) -> str:
        return render_bounded(TEMPLATE, {"rows": ROWS}, max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT,
                              timeout_seconds=5)

    template = sample_interleaved({"template_sandbox": bare, "template_budget": budgeted},
                                  n=40 if quick else 200, warmup=5, block=20)
    cold = TemplateLimits(max_steps=TEMPLATE_MAX_STEPS, max_output=MAX_TEMPLATE_OUTPUT,
                          timeout_seconds=TEMPLATE_TIMEOUT_SECONDS, warm=False)
    child = sample_interleaved({"template_sandbox_beside_child": bare,
                                "template_child": lambda _: render_jinja(TEMPLATE, {"rows": ROWS}),
                                "template_child_cold": lambda _: render_in_child(TEMPLATE, {"rows": ROWS}, cold)},
                               n=10 if quick else 40, warmup=2, block=5)
    summary = {name: summarize_ns(samples) for name, samples in {**code, **template, **child}.items()}
    return {"paths": summary,
            "ratios": {"code_jail_over_process_p50": round(summary["code_jail"]["p50_us"]
                                                           / summary["code_process"]["p50_us"], 2),
                       "template_budget_over_sandbox_p50": round(summary["template_budget"]["p50_us"]
                                                                 / summary["template_sandbox"]["p50_us"], 2),
                       "template_child_over_sandbox_p50": round(summary["template_child"]["p50_us"]
                                                                / summary["template_sandbox_beside_child"]["p50_us"], 2),
                       "template_child_cold_over_sandbox_p50": round(
                           summary["template_child_cold"]["p50_us"]
                           / summary["template_sandbox_beside_child"]["p50_us"], 2)},
            "load_average": round(os.getloadavg()[0], 2)}


def main(argv: list[str] | None = None) -> int:
    """Print the results as JSON."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (smoke run)")
    print(json.dumps(run(quick=parser.parse_args(argv).quick), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
