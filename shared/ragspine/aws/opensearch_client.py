"""Build an opensearch-py client, SigV4-signed for Amazon OpenSearch Service or Serverless.

Called on first use by ``OpenSearchChunkIndex`` (never at import: opensearch-py costs ~150 ms
of cold start). The signer is opensearch-py's ``Urllib3AWSV4SignerAuth`` over the default
urllib3 connection; service ``"es"`` signs for managed domains, ``"aoss"`` for Serverless
collections. Credentials come from boto3's default chain (the Lambda role in AWS) and are
refreshed by botocore as they expire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    import boto3
    import opensearchpy
    from opensearchpy import OpenSearch
else:
    boto3 = LazyModule("boto3")
    opensearchpy = LazyModule("opensearchpy")

Service = Literal["es", "aoss"]
Auth = Literal["sigv4", "none"]
SERVICES: tuple[Service, ...] = ("es", "aoss")


def build_client(endpoint: str, *, service: Service = "es", auth: Auth = "sigv4", region: str | None = None,
                 timeout: float = 10.0, max_retries: int = 1) -> OpenSearch:
    """An ``OpenSearch`` client for one endpoint.

    Args:
        endpoint: ``https://host[:port]``; a bare host means https on 443.
        service: ``"es"`` (OpenSearch Service domain) or ``"aoss"`` (Serverless collection).
        auth: ``"sigv4"`` signs every request; ``"none"`` is for a local test server only.
        region: the signing region; boto3's configured region when omitted.
        timeout: seconds per request.
        max_retries: transport retries on connection errors and 502/503/504.

    Returns:
        The client (no request is sent yet).

    Raises:
        ConfigurationError: bad endpoint or service, or no credentials or region for SigV4.
    """
    if service not in SERVICES:
        raise ConfigurationError(f"OpenSearch service must be one of {SERVICES}, got {service!r}")
    parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(f"invalid OpenSearch endpoint {endpoint!r}; expected https://host[:port]")
    use_ssl = parts.scheme == "https"
    port = parts.port or (443 if use_ssl else 80)
    return opensearchpy.OpenSearch(
        hosts=[{"host": parts.hostname, "port": port}],
        http_auth=_signer(service, region) if auth == "sigv4" else None,
        use_ssl=use_ssl,
        verify_certs=use_ssl,
        connection_class=opensearchpy.Urllib3HttpConnection,
        timeout=timeout,
        max_retries=max_retries,
        retry_on_timeout=True,
        retry_on_status=(502, 503, 504),
    )


def _signer(service: Service, region: str | None) -> object:
    session = boto3.Session(region_name=region) if region else boto3.Session()
    credentials = session.get_credentials()
    if credentials is None:
        raise ConfigurationError("no AWS credentials found to sign OpenSearch requests (SigV4)")
    if not session.region_name:
        raise ConfigurationError("no AWS region to sign OpenSearch requests: set RAGSPINE_AWS_REGION or AWS_REGION")
    signer: object = opensearchpy.Urllib3AWSV4SignerAuth(credentials, session.region_name, service)
    return signer
