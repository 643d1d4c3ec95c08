"""``ragspine knowledge``: the Gateway's service tokens, dev assertions, grants, audit and capability manifest.

Every command works on the data folder (``RAGSPINE_DATA_DIR``) a running ``ragspine serve``
uses, and takes effect there without a restart: the service reads them on each request.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ragspine.aws.secrets import update_json_secret
from ragspine.bootstrap import build_knowledge_store, get_knowledge_gateway
from ragspine.cli_exit import error_exit
from ragspine.errors import ConflictError, RagspineError
from ragspine.knowledge.codec import dump
from ragspine.knowledge.contract import manifest_text
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.knowledge.model import Action, Grant, PrincipalType
from ragspine.knowledge.secrets import token_entry
from ragspine.knowledge.spaces import set_space_enabled
from ragspine.settings import Environment, get_settings

if TYPE_CHECKING:
    from ragspine.knowledge.identity import StoredToken
    from ragspine.knowledge.model import PrincipalType
    from ragspine.knowledge.ports import KnowledgeStore

knowledge_app = typer.Typer(help="Knowledge Gateway: service tokens, user assertions, grants, audit, manifest.",
                            no_args_is_help=True)


@knowledge_app.command()
def manifest(out: Annotated[Path | None, typer.Option("--out", help="Write to this file instead of stdout.")] = None,
             ) -> None:
    """The capability manifest (tools, toolsets, approvals, concurrency) generated from the contract."""
    text = manifest_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {out}")


def _store() -> KnowledgeStore:
    return build_knowledge_store(get_settings())


token_app = typer.Typer(help="Service tokens of the business systems calling the Gateway.", no_args_is_help=True)
grant_app = typer.Typer(help="Grants: actions per space to a user, role or department.", no_args_is_help=True)
space_app = typer.Typer(help="Operator commands on spaces (not Gateway tools).", no_args_is_help=True)
knowledge_app.add_typer(token_app, name="token")
knowledge_app.add_typer(grant_app, name="grant")
knowledge_app.add_typer(space_app, name="space")


@token_app.command("create")
def token_create(name: Annotated[str, typer.Option("--name", help="Who uses the token (unique).")]) -> None:
    """Create a service token; it is printed once, alone on the last line, and stored only as a salted hash
    (in the Gateway's secret when ``RAGSPINE_KNOWLEDGE_SECRET`` names one, else in the Gateway's store)."""
    token, stored = new_token(name)
    settings = get_settings()
    try:
        if settings.knowledge_secret:
            _add_to_secret(settings.knowledge_secret, settings.aws_region, stored)
        else:
            _store().put_token(stored)
    except RagspineError as exc:
        raise error_exit(exc) from exc
    typer.echo(f"service token {name!r} (shown once; keep it in a secret store):")
    typer.echo(token)


def _add_to_secret(secret: str, region: str | None, stored: StoredToken) -> None:
    """Append the token's record to the Gateway secret's serviceTokens (names stay unique)."""
    def append(document: dict[str, Any]) -> dict[str, Any]:
        tokens = list(document.get("serviceTokens") or [])
        if any(isinstance(entry, dict) and entry.get("name") == stored.name for entry in tokens):
            raise ConflictError(f"a service token named {stored.name!r} exists in the Gateway secret")
        return {**document, "serviceTokens": [*tokens, token_entry(stored)]}

    update_json_secret(secret, setting="RAGSPINE_KNOWLEDGE_SECRET", region=region, change=append)


def _names(text: str | None) -> list[str]:
    return [item.strip() for item in (text or "").split(",") if item.strip()]


@knowledge_app.command()
def assertion(
    user: Annotated[str, typer.Option("--user", help="The user id (sub).")],
    roles: Annotated[str, typer.Option("--roles", help="Comma-separated roles.")] = "",
    departments: Annotated[str, typer.Option("--departments", help="Comma-separated departments.")] = "",
    domains: Annotated[str, typer.Option("--domains", help="Security domains the user may see.")] = "internal",
    lifetime: Annotated[int, typer.Option("--lifetime", min=1, max=600, help="Seconds until it expires.")] = 600,
) -> None:
    """A development X-User-Assertion signed with the local key (refused in production), alone on the last line."""
    settings = get_settings()
    if settings.env is Environment.PRODUCTION:
        typer.secho("error: development assertions are not trusted in production; your identity provider signs "
                    "assertions there", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2)
    token = sign_dev_assertion(dev_key(settings.data_dir), user=user, roles=_names(roles),
                               departments=_names(departments), domains=_names(domains),
                               issuer=settings.knowledge_assertion_issuer,
                               audience=settings.knowledge_assertion_audience, lifetime_s=lifetime)
    typer.echo(f"assertion for {user} (expires in {lifetime} s):")
    typer.echo(token)


SpaceOption = Annotated[str, typer.Option("--space", help="The knowledge space id, or '*' for every space.")]
PrincipalOption = Annotated[str, typer.Option("--to", help="user:ID, role:NAME or department:NAME.")]


def _principal(text: str) -> tuple[PrincipalType, str]:
    kind, _, name = text.partition(":")
    try:
        return PrincipalType(kind.strip().upper()), name.strip()
    except ValueError:
        raise typer.BadParameter("use user:ID, role:NAME or department:NAME") from None


@grant_app.command("add")
def grant_add(space: SpaceOption, to: PrincipalOption,
              actions: Annotated[str, typer.Option("--actions", help="Comma-separated actions, e.g. "
                                                   "SPACE_VIEW,DOCUMENT_VIEW,DOCUMENT_UPLOAD.")]) -> None:
    """Grant actions in a space (replacing what that principal held there); applies to the next request."""
    kind, name = _principal(to)
    try:
        granted = frozenset(Action(a.upper()) for a in _names(actions))
    except ValueError:
        raise typer.BadParameter(f"actions are {', '.join(a.value for a in Action)}") from None
    if not name or not granted:
        raise typer.BadParameter("name a principal and at least one action")
    _store().put_grant(Grant(space, kind, name, granted))
    typer.echo(f"granted {', '.join(sorted(granted))} in {space} to {kind.value.lower()}:{name}")


@grant_app.command("remove")
def grant_remove(space: SpaceOption, to: PrincipalOption) -> None:
    """Remove a principal's grant in a space."""
    kind, name = _principal(to)
    found = _store().delete_grant(space, kind.value, name)
    typer.echo("removed" if found else "no such grant")
    if not found:
        raise typer.Exit(code=1)


@grant_app.command("list")
def grant_list(space: Annotated[str | None, typer.Option("--space", help="Only this space.")] = None) -> None:
    """Every grant (or those of one space and of '*')."""
    for grant in _store().grants(space):
        typer.echo(f"{grant.space_id}\t{grant.principal_type.value.lower()}:{grant.principal}\t"
                   f"{','.join(sorted(grant.actions))}")


@knowledge_app.command()
def audit(limit: Annotated[int, typer.Option("--limit", min=1, max=10000)] = 50,
          as_json: Annotated[bool, typer.Option("--json", help="JSON lines for machines.")] = False) -> None:
    """The latest audited requests: time, user, action, resource, request id, tool call id, result, error code."""
    for entry in _store().audit(limit=limit):
        if as_json:
            typer.echo(dump(entry))
            continue
        typer.echo(f"{entry.at.isoformat()}  {entry.user_id}  {entry.action}  {entry.resource}  {entry.result}"
                   f"  {entry.error_code or '-'}  request={entry.request_id}  tool_call={entry.tool_call_id or '-'}")


@space_app.command("disable")
def space_disable(space: Annotated[str, typer.Argument(help="The knowledge space id.")]) -> None:
    """Disable a space: no uploads until it is enabled again."""
    _set_space(space, enabled=False)


@space_app.command("enable")
def space_enable(space: Annotated[str, typer.Argument(help="The knowledge space id.")]) -> None:
    """Enable a disabled space."""
    _set_space(space, enabled=True)


def _set_space(space_id: str, *, enabled: bool) -> None:
    try:
        changed = set_space_enabled(get_knowledge_gateway(), space_id, enabled=enabled)
    except RagspineError as exc:
        raise error_exit(exc) from exc
    typer.echo(f"{changed.id}: {changed.status.value} (version {changed.version})")
