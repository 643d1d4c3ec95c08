"""How the ask page signs its reader in: nothing locally, the company's identity provider on AWS.

The deployed page's API calls pass an HTTP API JWT authorizer; the page gets its token with the
OpenID Connect authorization code flow and PKCE (a public client, no secret in the browser).
The stack sets the provider's endpoints for its own Cognito user pool; for a company provider
given only by its issuer, they are read once from the issuer's discovery document.
"""

from __future__ import annotations

import functools
import json
import os
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from typing import Any

from ragspine.errors import ConfigurationError

ISSUER_ENV = "RAGSPINE_PAGE_ISSUER"
CLIENT_ID_ENV = "RAGSPINE_PAGE_CLIENT_ID"
AUTHORIZE_URL_ENV = "RAGSPINE_PAGE_AUTHORIZE_URL"
EXCHANGE_URL_ENV = "RAGSPINE_PAGE_EXCHANGE_URL"
SCOPE_ENV = "RAGSPINE_PAGE_SCOPE"
DEFAULT_SCOPE = "openid email profile"
DISCOVERY_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class PageLogin:
    """What the page needs to sign in: where to send the reader, where to redeem the code, as which client."""

    authorizeUrl: str  # noqa: N815 - the page reads these names as JSON
    tokenUrl: str  # noqa: N815
    clientId: str  # noqa: N815
    redirectUri: str  # noqa: N815
    scope: str

    @property
    def token_origin(self) -> str:
        """The token endpoint's origin, which the page's Content-Security-Policy must let it call."""
        parts = urllib.parse.urlsplit(self.tokenUrl)
        return f"{parts.scheme}://{parts.netloc}"

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def page_login(redirect_uri: str, env: dict[str, str] | None = None) -> PageLogin | None:
    """The sign-in of this deployment, or None when it has none (the local service).

    Raises:
        ConfigurationError: a client id without an issuer or endpoints, or an issuer whose
            discovery document cannot be read or names no endpoints.
    """
    values = os.environ if env is None else env
    client_id = values.get(CLIENT_ID_ENV, "").strip()
    if not client_id:
        return None
    authorize, token = values.get(AUTHORIZE_URL_ENV, "").strip(), values.get(EXCHANGE_URL_ENV, "").strip()
    if not (authorize and token):
        issuer = values.get(ISSUER_ENV, "").strip()
        if not issuer:
            raise ConfigurationError(f"{CLIENT_ID_ENV} is set but neither {ISSUER_ENV} nor {AUTHORIZE_URL_ENV} "
                                     f"and {EXCHANGE_URL_ENV}: set the issuer of the identity provider")
        authorize, token = discovered_endpoints(issuer)
    for name, url in (("authorization", authorize), ("token", token)):
        if urllib.parse.urlsplit(url).scheme not in ("https", "http"):
            raise ConfigurationError(f"the {name} endpoint {url!r} is not an http(s) URL")
    return PageLogin(authorize, token, client_id, redirect_uri, values.get(SCOPE_ENV, "").strip() or DEFAULT_SCOPE)


@functools.cache
def discovered_endpoints(issuer: str) -> tuple[str, str]:
    """The authorization and token endpoints of ``issuer``'s OpenID Connect discovery document (read once).

    Raises:
        ConfigurationError: the document cannot be read, or it lacks either endpoint.
    """
    url = issuer.rstrip("/") + "/.well-known/openid-configuration"
    if urllib.parse.urlsplit(url).scheme not in ("https", "http"):
        raise ConfigurationError(f"the issuer {issuer!r} is not an http(s) URL")
    try:
        with urllib.request.urlopen(url, timeout=DISCOVERY_TIMEOUT_S) as response:  # noqa: S310 - scheme checked
            document = json.loads(response.read(1_000_000))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"could not read the identity provider's discovery document {url}: {exc}") from exc
    endpoints = (document.get("authorization_endpoint"), document.get("token_endpoint"))
    if not all(isinstance(e, str) and e for e in endpoints):
        raise ConfigurationError(f"the discovery document {url} names no authorization_endpoint or token_endpoint")
    return str(endpoints[0]), str(endpoints[1])
