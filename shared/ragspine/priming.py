"""Before a Lambda SnapStart snapshot: build what a first answer builds that needs no network.

A function version published with SnapStart is initialised once, snapshotted, and every cold start
resumes from the snapshot instead of importing again. What the snapshot holds is the process's
memory: the modules imported, the domain files read (``glossary_of`` and the profile keep them per
folder), and ``re``'s cache of compiled patterns, keyed by the pattern's text, so a pattern the first
request compiles again is found there. ``prime_first_answer`` answers a few questions from the
domain the process would serve with nothing published, against an empty fact database in memory:
screening, the intent parser, the clarification gate and the structured route all run, every module
they import is loaded and every pattern they reach is compiled, and no answer is kept.

On AWS it also imports the adapters the first ask reads through and has botocore read the DynamoDB
models its client is built from. Nothing here reads the network or the credentials: the published
domain (``RAGSPINE_DOMAIN_SOURCE``), the fact table's open codes and the DynamoDB client itself are
read and built by the first request after a restore, as a snapshot must carry no connection, no
credentials and no stale copy of either.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ragspine.lazy import LazyModule
from ragspine.settings import Backend, Settings, get_settings

if TYPE_CHECKING:
    from ragspine import bootstrap
    from ragspine.aws import boto3_client, domain_store
    from ragspine.domain import files as domain_files
    from ragspine.domain import glossary_file
    from ragspine.facts import sqlite_store
    from ragspine.qa import answer, intent, screening
else:
    # Loaded when priming runs (before a snapshot only): a handler naming this module pays nothing for it.
    bootstrap = LazyModule("ragspine.bootstrap")
    boto3_client = LazyModule("ragspine.aws.boto3_client")
    domain_store = LazyModule("ragspine.aws.domain_store")
    domain_files = LazyModule("ragspine.domain.files")
    glossary_file = LazyModule("ragspine.domain.glossary_file")
    sqlite_store = LazyModule("ragspine.facts.sqlite_store")
    answer = LazyModule("ragspine.qa.answer")
    intent = LazyModule("ragspine.qa.intent")
    screening = LazyModule("ragspine.qa.screening")

# Questions of the shape a first ask most often has: a metric in a year, in each of the three question
# languages (each reads its own period and unit words). They take the structured route, which finds
# no fact in the empty database: none is needed.
PRIMING_QUESTIONS = ("2024年的毛利率是多少", "What was the revenue in FY2024?", "2024年度の売上高はいくらですか")


def prime_first_answer(settings: Settings | None = None) -> int:
    """Answer ``PRIMING_QUESTIONS`` with the domain served when nothing is published; the count answered.

    The domain is ``RAGSPINE_DOMAIN_DIR`` when set, else the one shipped in the layer, as
    ``bootstrap.domain_dir`` chooses before anything is published.
    """
    settings = settings or get_settings()
    domain = settings.domain_dir or domain_files.default_domain_dir()
    glossary = glossary_file.glossary_of(domain)
    qa = answer.QAComponents(
        facts=sqlite_store.SqliteFactStore(":memory:"), glossary=glossary,
        screening=screening.ScreeningPolicy.default(glossary=glossary, domain=domain),
        intent=intent.RuleIntentParser.from_file(glossary, domain / domain_files.INTENT),
        llm=bootstrap.build_llm(settings, glossary), clock=date.today,
        faq=bootstrap.build_faq(settings, domain), max_chars=settings.max_question_chars,
        system_prompt=bootstrap.build_system_prompt(domain), system_prompts=bootstrap.build_system_prompts(domain))
    answered = 0
    for question in PRIMING_QUESTIONS:
        answer.answer_question(question, qa=qa)
        answered += 1
    if settings.backend is Backend.AWS:
        prime_aws_reads(settings)
    return answered


def prime_aws_reads(settings: Settings) -> None:
    """The AWS adapters a first ask reads through, imported, and botocore's DynamoDB models read:
    its client is built by the first request (from credentials valid then), in a few milliseconds."""
    bootstrap.build_fact_store(settings)  # the adapter only: its client is built on first use
    if settings.domain_source:
        domain_store.s3_location(settings.domain_source)  # the reader loaded, the location it reads checked
    boto3_client.load_models("dynamodb")
