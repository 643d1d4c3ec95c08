"""Settings from ``RAGSPINE_*`` environment variables, validated once at start-up."""

from __future__ import annotations

import enum
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ragspine.errors import ConfigurationError

DEFAULT_DATA_DIR = Path(".ragspine")
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


class EmbedderName(enum.StrEnum):
    """Which embedder gives the dense leg of hybrid search (none: BM25 only)."""

    AUTO = "auto"  # embedded: the multilingual model when installed; aws: none
    NONE = "none"
    MINILM = "all-minilm-l6-v2-int8"
    E5 = "multilingual-e5-small-q4"
    BEDROCK = "bedrock"


class Environment(enum.StrEnum):
    """Deployment stage; production refuses development-only conveniences."""

    DEVELOPMENT = "development"
    TEST = "test"
    PRODUCTION = "production"


class Settings(BaseSettings):
    """Every tunable of the service; the only place that reads the environment."""

    model_config = SettingsConfigDict(env_prefix="RAGSPINE_", extra="ignore", frozen=True)

    env: Environment = Environment.DEVELOPMENT
    backend: Backend = Backend.EMBEDDED
    data_dir: Path = Field(
        default=DEFAULT_DATA_DIR,
        description="Folder holding all embedded state (facts database, indexes, uploads).",
    )
    facts_table: str | None = Field(default=None, description="DynamoDB table of facts (aws backend).")
    aws_region: str | None = None
    dynamodb_endpoint_url: str | None = Field(
        default=None, description="Override the DynamoDB endpoint (a local emulator)."
    )
    max_question_chars: int = Field(default=1000, ge=10, le=20000)
    parse_cache_size: int = Field(
        default=1024, ge=0, le=1_000_000,
        description="Questions whose parse (and rendering, while their facts are unchanged) a process keeps; 0: none.")
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=10 * 1024 * 1024)
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    today: date | None = Field(
        default=None, description="Pin the clock (YYYY-MM-DD) for reproducible default periods."
    )
    log_level: str = "INFO"
    llm_provider: LLMProviderName = Field(
        default=LLMProviderName.EXTRACTIVE,
        description="extractive (offline, quotes cited snippets), bedrock (Converse) or openai (compatible HTTP).")
    llm_timeout_s: float = Field(default=30.0, gt=0, le=300)
    bedrock_model_id: str = "anthropic.claude-3-haiku-20240307-v1:0"
    openai_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    openai_model: str = "gpt-4o-mini"
    faq_path: Path | None = Field(
        default=None, description="FAQ file (faq.yaml format); default: the ACME sample FAQ.")
    faq_enabled: bool = True
    faq_threshold: float = Field(default=90.0, gt=0, le=100)
    faq_semantic: bool = Field(default=True, description="Also match FAQ questions by meaning when an embedder is set.")
    faq_semantic_threshold: float = Field(default=0.86, gt=0, le=1)
    faq_semantic_margin: float = Field(default=0.02, ge=0, lt=1)
    embedder: EmbedderName = Field(
        default=EmbedderName.AUTO,
        description="Dense retrieval leg: auto, none (BM25 only), an offline model, or bedrock (AWS).")
    bedrock_embedding_model_id: str = "amazon.titan-embed-text-v2:0"
    bedrock_embedding_dimension: int = Field(default=1024, ge=256, le=1024)
    retrieval_top_k: int = Field(default=5, ge=1, le=20)
    rerank_enabled: bool = Field(default=False, description="Listwise rerank through the LLM provider.")
    opensearch_endpoint: str | None = Field(default=None, description="Chunk index on AWS (https://...).")
    opensearch_index: str = "ragspine-chunks"
    opensearch_service: Literal["es", "aoss"] = "es"
    dify_run_enabled: bool = Field(default=False, description="Allow workflow execution (off by default).")
    workflows_table: str | None = Field(
        default=None, description="DynamoDB table of stored workflows and hashed API keys (aws backend).")
    workflow_dsl_version: str = Field(
        default="0.6.0", pattern=r"^\d+\.\d+\.\d+$", description="Dify DSL version generated documents declare.")
    workflow_http_allowlist: str = Field(
        default="", description="Comma-separated hosts http-request nodes may call (empty: none).")
    workflow_code_enabled: bool = Field(
        default=False, description="Let the executor run code nodes in a limited subprocess (not an OS sandbox).")
    workflow_webhook_max_bytes: int = Field(default=64 * 1024, ge=1, le=10 * 1024 * 1024,
                                            description="Largest webhook payload accepted (larger: 413).")
    workflow_webhook_methods: str = Field(
        default="GET,POST", description="Comma-separated HTTP methods webhooks accept (others: 405).")
    workflow_webhook_rate_per_minute: int = Field(
        default=60, ge=1, le=1_000_000, description="Webhook calls per minute per path, per process (token bucket).")
    workflow_webhook_burst: int = Field(default=10, ge=1, le=100_000,
                                        description="Webhook calls one path may make at once before the rate applies.")
    ingest_table: str | None = Field(
        default=None, description="DynamoDB table of ingestion operations and active versions (aws backend).")
    staging_bucket: str | None = Field(
        default=None, description="S3 bucket holding ingestion step outputs under staging/ (aws backend).")
    ingest_state_machine_arn: str | None = Field(
        default=None, description="Step Functions state machine the S3 trigger starts per upload (aws backend).")
    ingest_max_bytes: int = Field(default=50 * 1024 * 1024, ge=1,
                                  description="Largest file `ragspine ingest` accepts (larger: INGEST_TOO_LARGE).")

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
    def facts_db_path(self) -> Path:
        """SQLite file of the embedded fact store."""
        return self.data_dir / "facts.db"

    @property
    def workflows_db_path(self) -> Path:
        """SQLite file of the embedded workflow store (workflows and hashed API keys)."""
        return self.data_dir / "workflows.db"

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
