"""``ragspine eval``: run a model over the evaluation questions and report what became of its answers."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
import yaml
from pydantic import SecretStr
from rich.console import Console

from ragspine.bootstrap import build_llm, build_services, domain_dir
from ragspine.cli_ingest import ingest_samples, report
from ragspine.demo import sample_dir
from ragspine.errors import RagspineError
from ragspine.qa.narrative_eval import QUESTIONS_FILE, evaluate, format_report, load_questions
from ragspine.settings import LLMProviderName, StructuredOutput, get_settings

eval_app = typer.Typer(help="Evaluate a model on this deployment's documents.", no_args_is_help=True)


@eval_app.command("narrative")
def narrative(
    base_url: Annotated[str | None, typer.Option("--base-url", help="The OpenAI-compatible API root, e.g. "
                                                                    "http://127.0.0.1:8080/v1; without it, the "
                                                                    "configured model (RAGSPINE_LLM_PROVIDER, the "
                                                                    "offline extractive one by default).")] = None,
    model: Annotated[str, typer.Option(help="The model field of each request.")] = "local",
    api_key_env: Annotated[str | None, typer.Option(help="Name of the environment variable holding the key "
                                                         "(none for a local server).")] = None,
    timeout: Annotated[float, typer.Option(min=0.1, max=3600, help="Seconds per request (a CPU model needs "
                                                                   "minutes).")] = 300.0,
    max_tokens: Annotated[int, typer.Option(min=16, max=8192, help="Longest reply, in tokens.")] = 400,
    questions: Annotated[Path | None, typer.Option(help="YAML of questions; default the domain's "
                                                        "narrative_eval.yaml.")] = None,
    samples: Annotated[bool, typer.Option("--samples/--no-samples",
                                          help="Ingest the domain's sample documents first.")] = True,
    structured_output: Annotated[list[str] | None, typer.Option(
        "--structured-output", help="off, json_schema or json_object (see RAGSPINE_OPENAI_STRUCTURED_OUTPUT); "
                                    "repeat it to compare the forms over the same ingested documents.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Ask every evaluation question with the model at --base-url (or the configured one) and count what happened.

    Reports: answered by the model, rejected (and the values why), fell back to the passages,
    timed out, declined, language kept, citations right, invented numbers, RESTRICTED leaks;
    with several ``--structured-output`` forms, one report per form, in the order given.
    """

    if base_url is None and structured_output:
        typer.secho("error: --structured-output is a form of the request to --base-url; pass --base-url too",
                    err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2)
    modes = structured_output or [StructuredOutput.OFF.value]
    unknown = [m for m in modes if m not in {o.value for o in StructuredOutput}]
    if unknown:
        typer.secho(f"error: --structured-output {unknown[0]!r} is not one of "
                    f"{', '.join(o.value for o in StructuredOutput)}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2)

    settings = get_settings()
    if base_url is not None:
        settings = settings.model_copy(update={
            "llm_provider": LLMProviderName.OPENAI, "openai_base_url": base_url, "openai_model": model,
            "openai_timeout_s": timeout, "openai_max_tokens": max_tokens})
        key = os.environ.get(api_key_env, "") if api_key_env else ""
        if key:
            settings = settings.model_copy(update={"openai_api_key": SecretStr(key)})
    path = questions or domain_dir() / QUESTIONS_FILE
    if not path.is_file():
        typer.secho(f"error: no questions file at {path}; pass --questions", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2)
    try:
        services = build_services(settings)
        if samples:
            console = Console(stderr=True)
            report(console, ingest_samples(services, console))
        asked = load_questions(path)
        restricted = restricted_documents()
        if base_url is None:  # the model the service answers with, as it is configured
            results = {str(settings.llm_provider.value): evaluate(services.qa, asked, restricted_docs=restricted)}
        else:  # the endpoint, once per request form
            results = {}
            for mode in modes:
                llm = build_llm(settings.model_copy(update={"openai_structured_output": StructuredOutput(mode)}))
                results[mode] = evaluate(replace(services.qa, llm=llm), asked, restricted_docs=restricted)
    except (RagspineError, ValueError) as exc:
        typer.secho(f"error: {exc}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    if as_json:
        form = "structured_output" if base_url is not None else "provider"
        runs = [{form: mode, **result.to_dict()} for mode, result in results.items()]
        typer.echo(json.dumps(runs[0] if len(runs) == 1 else {"runs": runs}, ensure_ascii=False, indent=2))
        return
    for mode, result in results.items():
        if len(results) > 1:
            typer.echo(f"== structured output: {mode}")
        typer.echo(format_report(result))


def restricted_documents() -> list[str]:
    """The sample documents the domain's manifest marks RESTRICTED (none without samples)."""
    try:
        manifest = sample_dir(domain_dir()) / "manifest.yaml"
    except RagspineError:
        return []
    if not manifest.is_file():
        return []
    documents = (yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}).get("documents", [])
    return [str(d["file"]) for d in documents if str(d.get("sensitivity", "")).upper() == "RESTRICTED"]
