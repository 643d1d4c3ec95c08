"""Request and response models of the workflow routers (pydantic lives only at this edge)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from ragspine.names import name_problem
from ragspine.workflows.dsl import InputFormat, NormalizedInput, OutputFormat, normalize

_HAS_TEXT: dict[str, Any] = {"required": ["text"]}
_HAS_DOCUMENT: dict[str, Any] = {"required": ["document"]}
_HAS_SOURCE: dict[str, Any] = {"anyOf": [_HAS_TEXT, _HAS_DOCUMENT]}


def _no_default(schema: dict[str, Any]) -> None:
    """Leave ``default: null`` out of an optional field's schema: null is not an accepted value."""
    schema.pop("default", None)


_TEXT_HELP = ("A free-text description, or the JSON, YAML or TOML text of a Dify DSL, an n8n workflow or a "
              "description mapping ({description, name?, inputs?}).")


class WorkflowSourceRequest(BaseModel):
    """What to work on: exactly one of ``text`` (any supported format) or an already-parsed JSON ``document``.

    The published schema says so (``oneOf``); an explicit ``null`` is refused like a wrong type,
    so that a field's presence is what counts, as the schema states it.
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [_HAS_TEXT, _HAS_DOCUMENT]})

    text: str | SkipJsonSchema[None] = Field(default=None, description=_TEXT_HELP, min_length=1,
                                             examples=["Translate {{text}} into Japanese"],
                                             json_schema_extra=_no_default)
    document: dict[str, Any] | SkipJsonSchema[None] = Field(default=None, json_schema_extra=_no_default,
                                                            description="A Dify DSL or n8n workflow as JSON.")
    input_format: InputFormat = Field(default=InputFormat.AUTO, description="How to read `text`.")
    output_format: OutputFormat = Field(default=OutputFormat.YAML, description="Serialisation of Dify output.")

    @model_validator(mode="after")
    def _one_source(self) -> WorkflowSourceRequest:
        if (self.text is None) == (self.document is None) and not self._source_optional():
            raise ValueError("send exactly one of text or document")
        return self

    @field_validator("text", "document", "template", mode="before", check_fields=False)
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("must not be null: leave the field out instead")
        return value

    def _source_optional(self) -> bool:
        return False

    def normalized(self) -> NormalizedInput | None:
        """The normalised input (None only when a subclass allows no source).

        Raises:
            WorkflowParseError: malformed text (line and column). WorkflowInvalidError: wrong shape.
        """
        if self.document is not None:
            return normalize(json.dumps(self.document, ensure_ascii=False), fmt=InputFormat.JSON)
        return normalize(self.text, fmt=self.input_format) if self.text is not None else None


class ScaffoldRequest(WorkflowSourceRequest):
    """A source to scaffold, or a catalog ``template`` id (then the source is optional)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        _HAS_TEXT, _HAS_DOCUMENT, {"required": ["template"], "not": _HAS_SOURCE}]})

    template: str | SkipJsonSchema[None] = Field(default=None, json_schema_extra=_no_default,
                                                 description="A catalog entry id, e.g. tpl-translation.")
    match_catalog: StrictBool = Field(default=True, description="Reuse a curated template that matches a description.")

    def _source_optional(self) -> bool:
        return self.template is not None and self.text is None and self.document is None


class WorkflowResult(BaseModel):
    """A compile/analyze/preview result plus how the input became a Dify DSL."""

    origin: str
    warnings: list[str]
    plan: dict[str, Any] | None = None
    analysis: dict[str, Any] | None = None
    preview: dict[str, Any] | None = None
    diagram: str | None = Field(default=None, description="Preview only: the graph as a Mermaid flowchart.")


class ScaffoldResponse(BaseModel):
    """A scaffolded Dify DSL: the mapping, its deterministic text, the preview and the catalog match."""

    origin: str
    format: OutputFormat
    text: str
    document: dict[str, Any]
    preview: dict[str, Any]
    warnings: list[str]
    match: dict[str, Any] | None = None


class ConvertResponse(BaseModel):
    """A converted document (``target`` dify or n8n), its text and the conversion report."""

    target: str
    document: dict[str, Any]
    text: str
    report: dict[str, Any]


def _visible_user(user: str) -> str:
    if (problem := name_problem(user)) is not None:
        raise ValueError(problem)
    return user


# Dify's ``user``: the caller's id for its end user, recorded with the run and matched on a stop. It is shown and
# logged like a name, so it follows the Gateway's name rule (visible text: no control, bidi or tag characters).
DifyUser = Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_visible_user)]


class DifyRunRequest(BaseModel):
    """Dify's ``POST /workflows/run`` body; files are not supported here."""

    model_config = ConfigDict(extra="ignore")

    inputs: dict[str, Any]
    response_mode: Literal["blocking", "streaming"] | None = None
    user: DifyUser
    files: list[Any] = Field(default_factory=list, max_length=0, description="Not supported: must be empty.")
    trace_id: str | None = None


class DifyStopRequest(BaseModel):
    """Dify's ``POST /workflows/tasks/{task_id}/stop`` body: the user who started the run."""

    model_config = ConfigDict(extra="ignore")

    user: DifyUser
