"""Each Lambda handler imports without the packages its layers do not ship.

The document parsers' libraries ship only in the ``IngestLayer`` (``layers/ingest/requirements.txt``),
which only the worker has, and cryptography (asymmetric JWT assertions) only in the Knowledge
function's package and, through pypdf, in the IngestLayer. Every other handler must import with them
absent, so the engine loads them lazily, inside the parsers and the identity checks. Each check runs in a fresh interpreter whose import system refuses
those packages, so a module already imported by another test cannot hide an eager import.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.ask_child import run_child
from tests.support.cfn import REPO_ROOT

# Top-level modules of layers/ingest/requirements.txt and of what those packages pull in.
INGEST_ONLY_MODULES = (
    "pptx", "openpyxl", "docx", "pypdf", "pypdfium2", "pypdfium2_raw", "lxml", "PIL", "xlsxwriter",
    "et_xmlfile", "markdown_it", "mdurl",
)
# functions/knowledge/requirements.txt and the IngestLayer ship it; the EngineLayer does not.
CRYPTO_MODULES = ("cryptography", "cffi", "_cffi_backend")
# opensearch-py 3.x pulls grpcio in; no function may need it (shared/requirements.txt pins <3).
UNSHIPPED_MODULES = ("grpc",)
# What each function's code and layers do not ship.
NOT_SHIPPED = {
    "ask": INGEST_ONLY_MODULES + CRYPTO_MODULES + UNSHIPPED_MODULES,
    "workflow": INGEST_ONLY_MODULES + CRYPTO_MODULES + UNSHIPPED_MODULES,
    "webhook": INGEST_ONLY_MODULES + CRYPTO_MODULES + UNSHIPPED_MODULES,
    "ingest_trigger": INGEST_ONLY_MODULES + CRYPTO_MODULES + UNSHIPPED_MODULES,
    "knowledge": INGEST_ONLY_MODULES + UNSHIPPED_MODULES,
    "worker": UNSHIPPED_MODULES,
    # the IngestLayer ships the parsers for its evidence view; the handler still imports without them
    "page": INGEST_ONLY_MODULES + CRYPTO_MODULES + UNSHIPPED_MODULES,
}

_GUARDED_IMPORT = textwrap.dedent(
    """
    import importlib, importlib.abc, sys

    BLOCKED = set(sys.argv[1].split(","))

    class RefuseBlocked(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            if fullname.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"{fullname} is not in this function's layers", name=fullname)
            return None

    sys.meta_path.insert(0, RefuseBlocked())
    importlib.import_module(sys.argv[2])
    """
)


def _import_with_blocked(module: str, blocked: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """Import ``module`` in a fresh interpreter that refuses every top-level name in ``blocked``."""
    return subprocess.run(
        [sys.executable, "-c", _GUARDED_IMPORT, ",".join(blocked), module],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("function", sorted(NOT_SHIPPED))
def test_handler_imports_without_the_packages_its_layers_do_not_ship(function: str) -> None:
    # GIVEN an interpreter without the packages the function's code and layers lack
    # WHEN the function's handler module is imported
    done = _import_with_blocked(f"functions.{function}.app", NOT_SHIPPED[function])
    # THEN it imports: nothing on its import path needs them
    assert done.returncode == 0, f"functions/{function}/app.py needs a package it does not ship:\n{done.stderr}"


@pytest.mark.parametrize("package", ["pptx", "cryptography"])
def test_the_guard_refuses_a_blocked_package_and_only_that(package: str) -> None:
    # GIVEN an installed package
    # WHEN it is imported with and without the guard refusing it
    refused = _import_with_blocked(package, INGEST_ONLY_MODULES + CRYPTO_MODULES)
    allowed = _import_with_blocked(package, ())
    # THEN only the guarded import fails, naming the guard, so the checks above can fail
    assert refused.returncode != 0
    assert "is not in this function's layers" in refused.stderr
    assert allowed.returncode == 0, allowed.stderr


@pytest.mark.parametrize("function", ["ask", "knowledge"])
def test_handlers_without_workflow_routes_do_not_load_the_workflow_domain(function: str) -> None:
    # The peer surfaces' 413 renderers import the workflow package; only a refused body may load them.
    probe = ("import sys, importlib; importlib.import_module(sys.argv[1]); "
             "sys.exit(1 if 'ragspine.workflows' in sys.modules else 0)")
    done = subprocess.run([sys.executable, "-c", probe, f"functions.{function}.app"], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"functions.{function}.app imported ragspine.workflows at cold start\n{done.stderr}"


def _embedded_env(data_dir: Path) -> dict[str, str]:
    """The ask function on the embedded backend, its data in ``data_dir`` (no embedder)."""
    return {"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": str(REPO_ROOT),
            "RAGSPINE_BACKEND": "embedded", "RAGSPINE_DATA_DIR": str(data_dir), "RAGSPINE_EMBEDDER": "none"}


_FIRST_ASK = textwrap.dedent(
    """
    import json, sys
    import functions.ask.app as app
    from tests.support.ask_child import ask

    _status, body = ask(app)
    print(json.dumps({"route": body["route"], "loaded": sorted(set(sys.argv[1:]) & set(sys.modules))}))
    """
)
# What a question answered from the facts never needs: the fuzzy matchers (a question every FAQ key is far
# from, a glossary that reads every word), the narrative channel, and pydantic-settings (never imported).
NOT_FOR_A_STRUCTURED_ASK = ("rapidfuzz", "ragspine.qa.narrative", "pydantic_settings")


def test_a_structured_ask_loads_neither_the_fuzzy_matchers_nor_the_narrative_channel(tmp_path: Path) -> None:
    # GIVEN a fresh interpreter running the ask function, as a cold start does
    # WHEN its first request is a question the facts answer
    outcome = run_child(_FIRST_ASK, *NOT_FOR_A_STRUCTURED_ASK, env=_embedded_env(tmp_path))
    # THEN it was answered on the structured route without loading what only other questions need
    assert outcome == {"route": "structured", "loaded": []}



_ASK_AND_COUNT_CUES = textwrap.dedent(
    """
    import json, sys
    import functions.ask.app as app
    from ragspine.qa import arithmetic_cues
    from ragspine.lazy import LazyPattern
    from tests.support.ask_child import ask

    _status, body = ask(app, sys.argv[1])
    cues = [value for value in vars(arithmetic_cues).values() if isinstance(value, LazyPattern)]
    cues += [pattern for pattern, _shift in arithmetic_cues._PLACES]
    print(json.dumps({"route": body["route"], "cues": len(cues), "compiled": sum(c._compiled is not None for c in cues)}))
    """
)


# A question without a cue word compiles the whole-number cue only (``_places`` reads it first); one saying
# "average" compiles every cue ``_read_cues`` searches.
@pytest.mark.parametrize(("question", "compiled"), [("2024年日本的毛利率是多少", range(2)),
                                                    ("What was the average gross margin of ACME Japan in FY2024?",
                                                     range(2, 25))])
def test_a_cold_start_compiles_only_the_arithmetic_cues_its_question_holds(
        tmp_path: Path, question: str, compiled: range) -> None:
    # GIVEN a fresh interpreter running the ask function, as a cold start does
    # WHEN its first request is a question the facts answer, with or without an arithmetic word in it
    outcome = run_child(_ASK_AND_COUNT_CUES, question, env=_embedded_env(tmp_path))
    # THEN it is answered from the facts, and of the two dozen cue patterns only those its words reach compiled
    assert outcome["route"] == "structured", outcome
    assert outcome["cues"] >= 20
    assert outcome["compiled"] in compiled, outcome
