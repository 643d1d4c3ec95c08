"""One schemathesis engine run (every phase, every check) collected per operation, for the contract tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_METHODS = ("get", "put", "post", "patch", "delete", "head", "options")


@dataclass
class ContractRun:
    """What the run tested and what failed, per operation."""

    tested: set[str] = field(default_factory=set)
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    phases: dict[str, str] = field(default_factory=dict)
    published: set[str] = field(default_factory=set)


def run_engine(schema: Any) -> ContractRun:
    """Run schemathesis' engine over ``schema`` (as ``schemathesis run`` does) and collect its outcome."""
    from schemathesis.engine import Status, events, from_schema

    run = ContractRun(published={f"{method.upper()} {path}" for path, item in schema.raw_schema["paths"].items()
                                 for method in item if method in _METHODS})
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
            run.tested.add(event.recorder.label)
            for checks in event.recorder.checks.values():
                run.failures.extend(f"{event.recorder.label}: [{c.failure_info.failure.code}] "
                                    f"{c.failure_info.failure.title}\n{c.failure_info.failure.message}\n"
                                    f"{c.failure_info.code_sample}"
                                    for c in checks if c.status is Status.FAILURE and c.failure_info)
        elif isinstance(event, events.NonFatalError | events.FatalError):
            run.errors.append(str(getattr(event, "info", event)))
        elif isinstance(event, events.PhaseFinished):
            run.phases[event.phase.name.value] = event.status.value
        elif isinstance(event, events.EngineFinished):
            run.failures.extend(f"{f.title}: {f.message}" for f in event.failures)
    return run
