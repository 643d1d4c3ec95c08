"""Space services: list, get, create, update, delete (no cascade), each behind the Gateway's ACL."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ragspine.errors import ConflictError, FieldError, ForbiddenError, NotFoundError, ProviderUnavailableError
from ragspine.knowledge.acl import access
from ragspine.knowledge.gateway import Gateway, new_id
from ragspine.knowledge.model import ALL_SPACES, Action, DocumentStatus, Principal, Space, SpaceStatus
from ragspine.knowledge.operations import unfinished
from ragspine.knowledge.ports import Change

_VERSION_MISMATCH = ("expectedVersion does not match the space's version: read the space again and retry with "
                     "its current version")
NOT_EMPTY = "the space still has documents: delete them first (a space is never deleted with its documents)"
UNFINISHED = "the space has unfinished operations: wait for them to finish or cancel them, then delete it"


def list_spaces(gateway: Gateway, principal: Principal) -> list[Space]:
    """The spaces the caller may view, oldest first (deleted ones are gone)."""
    return [s for s in gateway.store.spaces() if s.status is not SpaceStatus.DELETED
            and gateway.access(principal, s.id).holds(Action.SPACE_VIEW, domain=s.security_domain)]


def get_space(gateway: Gateway, principal: Principal, space_id: str) -> Space:
    """One space the caller may view (404 otherwise)."""
    return gateway.visible_space(principal, space_id)


def document_count(gateway: Gateway, space_id: str) -> int:
    """Documents of the space that are not deleted."""
    return sum(1 for d in gateway.store.documents(space_id) if d.status is not DocumentStatus.DELETED)


def create_space(gateway: Gateway, principal: Principal, body: dict[str, Any]) -> Space:
    """Create a space: CREATING, then ACTIVE once its provider is ready (CREATE_FAILED if it is not).

    Raises:
        ForbiddenError: no SPACE_CREATE (an admin role or a grant on every space).
        InvalidInputError: unknown security domain, or one the caller may not see.
        ConflictError: the code is taken.
        ProviderUnavailableError: the provider could not be prepared (the space stays CREATE_FAILED).
    """
    domain = body["defaultSecurityDomainCode"]
    gateway.check_domain(domain)
    granted = access(principal, gateway.store.grants(ALL_SPACES), admin_roles=gateway.config.admin_roles)
    if Action.SPACE_CREATE not in granted.actions:
        raise ForbiddenError("you may not create knowledge spaces: ask for an admin role or a SPACE_CREATE grant")
    if domain not in principal.security_domains:
        raise ForbiddenError(f"your assertion does not list security domain {domain!r}: a space you could not see")
    now = gateway.clock()
    space = Space(id=new_id("ks"), code=body["code"], name=body["name"], description=body.get("description"),
                  security_domain=domain, status=SpaceStatus.CREATING, version=1, created_at=now, updated_at=now)
    gateway.store.commit(Change(space=space))
    try:
        gateway.provisioner.prepare(space)
    except ProviderUnavailableError:
        gateway.store.commit(Change(space=replace(space, status=SpaceStatus.CREATE_FAILED), space_expected=1))
        raise
    ready = replace(space, status=SpaceStatus.ACTIVE, updated_at=gateway.clock())
    gateway.store.commit(Change(space=ready, space_expected=1))
    return ready


def _expect(space: Space, expected: int) -> None:
    if space.version != expected:
        raise ConflictError(_VERSION_MISMATCH, field_errors=(FieldError("expectedVersion", "does not match"),))


def update_space(gateway: Gateway, principal: Principal, space_id: str, body: dict[str, Any]) -> Space:
    """Rename or describe a space (``description: null`` clears it); the version goes up by one.

    Raises:
        NotFoundError, ForbiddenError, ConflictError (version mismatch or a space being deleted).
    """
    space = gateway.visible_space(principal, space_id, Action.SPACE_UPDATE)
    _expect(space, body["expectedVersion"])
    if space.status not in (SpaceStatus.ACTIVE, SpaceStatus.DISABLED):
        raise ConflictError(f"the space is {space.status.value} and cannot be changed")
    updated = replace(space, name=body.get("name", space.name),
                      description=body.get("description", space.description),
                      version=space.version + 1, updated_at=gateway.clock())
    gateway.store.commit(Change(space=updated, space_expected=space.version))
    return updated


def delete_space(gateway: Gateway, principal: Principal, space_id: str, body: dict[str, Any]) -> Space:
    """Delete an empty space with no unfinished operation: DELETING, then DELETED (DELETE_FAILED on failure).

    Raises:
        NotFoundError, ForbiddenError, ConflictError (version mismatch, documents left, unfinished operations),
        ProviderUnavailableError (the space stays DELETE_FAILED and can be deleted again).
    """
    space = gateway.visible_space(principal, space_id, Action.SPACE_DELETE)
    _expect(space, body["expectedVersion"])
    if any(unfinished(gateway, op) for op in gateway.store.operations(space_id=space_id)):
        raise ConflictError(UNFINISHED)
    if document_count(gateway, space_id):
        raise ConflictError(NOT_EMPTY)
    deleting = replace(space, status=SpaceStatus.DELETING, version=space.version + 1, updated_at=gateway.clock())
    gateway.store.commit(Change(space=deleting, space_expected=space.version))
    try:
        gateway.provisioner.release(deleting)
    except ProviderUnavailableError:
        failed = replace(deleting, status=SpaceStatus.DELETE_FAILED, updated_at=gateway.clock())
        gateway.store.commit(Change(space=failed, space_expected=deleting.version))
        raise
    deleted = replace(deleting, status=SpaceStatus.DELETED, updated_at=gateway.clock())
    gateway.store.commit(Change(space=deleted, space_expected=deleting.version))
    return deleted


def set_space_enabled(gateway: Gateway, space_id: str, *, enabled: bool) -> Space:
    """Disable (no uploads, documents not searchable) or re-enable a space: an operator command, not a tool.

    Raises:
        NotFoundError: no such space. ConflictError: it is not ACTIVE / DISABLED.
    """
    space = gateway.store.space(space_id)
    if space is None or space.status is SpaceStatus.DELETED:
        raise NotFoundError(f"no knowledge space {space_id}")
    source, target = ((SpaceStatus.DISABLED, SpaceStatus.ACTIVE) if enabled
                      else (SpaceStatus.ACTIVE, SpaceStatus.DISABLED))
    if space.status is not source:
        raise ConflictError(f"the space is {space.status.value}, not {source.value}")
    changed = replace(space, status=target, version=space.version + 1, updated_at=gateway.clock())
    gateway.store.commit(Change(space=changed, space_expected=space.version))
    return changed
