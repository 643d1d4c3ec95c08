"""The Gateway's final access decision: grants per space, admin roles, security domains, 404 before 403.

A caller holds an action in a space when an admin role of the assertion holds every action, or
a grant of that space (or of every space, ``*``) names the caller's user id, one of its roles or
one of its departments with that action. Every caller, admins included, sees a resource only when
its security domain is one the assertion's ``securityDomains`` lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.errors import ForbiddenError, NotFoundError
from ragspine.knowledge.model import Action, Grant, Principal, PrincipalType


@dataclass(frozen=True, slots=True)
class Access:
    """The actions one principal holds in one space."""

    actions: frozenset[Action]
    domains: frozenset[str]

    def holds(self, action: Action, *, domain: str) -> bool:
        """Whether the action is held on a resource of this security domain."""
        return action in self.actions and domain in self.domains


def access(principal: Principal, grants: Sequence[Grant], *, admin_roles: frozenset[str]) -> Access:
    """The actions ``principal`` holds through ``grants`` (those of one space and of ``*``)."""
    if principal.roles & admin_roles:
        return Access(frozenset(Action), principal.security_domains)
    names = {PrincipalType.USER: {principal.user_id}, PrincipalType.ROLE: principal.roles,
             PrincipalType.DEPARTMENT: principal.departments}
    held: set[Action] = set()
    for grant in grants:
        if grant.principal in names[grant.principal_type]:
            held |= grant.actions
    return Access(frozenset(held), principal.security_domains)


class HiddenResourceError(NotFoundError):
    """A resource the caller may not view: answered exactly like a missing one, audited as denied."""


def not_found(kind: str, resource_id: str) -> HiddenResourceError:
    """The same answer for a missing resource and one the caller may not see."""
    return HiddenResourceError(f"no {kind} {resource_id} that you can see: check the id, or ask for access")


def require(granted: Access, action: Action, *, view: Action, domain: str, kind: str, resource_id: str) -> None:
    """Allow ``action``, or raise 404 when the caller may not even view the resource, else 403.

    Raises:
        HiddenResourceError: the caller lacks ``view`` on it (it must not learn the resource exists).
        ForbiddenError: the caller may view it but not perform ``action``.
    """
    if not granted.holds(view, domain=domain):
        raise not_found(kind, resource_id)
    if not granted.holds(action, domain=domain):
        raise ForbiddenError(f"you may not {action.value} on this {kind}: ask a space administrator for a grant")
