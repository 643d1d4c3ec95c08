"""``LazyClient``: an adapter's AWS SDK client, injected (tests) or built on first use.

Clients are built by botocore from one session per process; boto3 itself is never imported. What
boto3 adds over botocore is resources and S3's transfer methods, which no adapter calls, and importing
it costs a cold start some 20-30 ms of CPU (``s3transfer``, ``multiprocessing``, its resource
factory). A client built here is the client ``boto3.client`` would build: the same service model,
credentials chain, configuration and event hooks (so moto and the X-Ray SDK see its calls).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar, cast

import botocore.session
from botocore.config import Config

ClientT = TypeVar("ClientT")
# The process's session, built on first use (tests/support/aws_session.py forgets it between tests).
_SESSION: list[botocore.session.Session] = []


def shared_botocore_session() -> Any:
    """The botocore session ``new_client`` builds every client from: one set of credentials,
    configuration and event hooks per process, built on first use (from the environment then)."""
    if not _SESSION:
        _SESSION.append(botocore.session.get_session())
    return _SESSION[0]


# What building a client reads from botocore's data files besides the service's own models.
_CLIENT_DATA = ("endpoints", "partitions", "sdk-default-configuration")


def load_models(*services: str) -> None:
    """Read the data files a first client of each of ``services`` reads into the shared session's
    loader, which keeps them (no client built, no credentials read, no request sent). Building the
    client later only parses what its endpoint and configuration need."""
    loader = shared_botocore_session().get_component("data_loader")
    for name in _CLIENT_DATA:
        loader.load_data(name)
    for service in services:
        loader.load_service_model(service, "service-2")
        loader.load_service_model(service, "endpoint-rule-set-1")


def new_client(service: str, *, region: str | None = None, endpoint_url: str | None = None,
               config: Mapping[str, Any] | None = None) -> Any:
    """A new client for ``service``; ``config`` holds ``botocore.config.Config`` arguments."""
    return shared_botocore_session().create_client(service, region_name=region, endpoint_url=endpoint_url,
                                                   config=Config(**config) if config else None)


class LazyClient(Generic[ClientT]):
    """One adapter's client: the one given, else one built by ``new_client`` on the first ``get``."""

    def __init__(self, service: str, *, client: ClientT | None = None, region: str | None = None,
                 endpoint_url: str | None = None, config: Mapping[str, Any] | None = None) -> None:
        self._service = service
        self._client = client
        self._region = region
        self._endpoint_url = endpoint_url
        self._config = config

    @property
    def built(self) -> bool:
        """Whether a client exists yet (given, or built by an earlier ``get``)."""
        return self._client is not None

    def get(self) -> ClientT:
        """The client, built now when none was given and none was built before."""
        if self._client is None:
            self._client = cast(ClientT, new_client(self._service, region=self._region,
                                                    endpoint_url=self._endpoint_url, config=self._config))
        return self._client
