"""``LazyClient``: an adapter's boto3 client, injected (tests) or built on first use.

boto3 and botocore are imported only when a client is first built, so importing an adapter (and
cold-starting a Lambda that never calls it) costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar, cast

import boto3
from botocore.config import Config

ClientT = TypeVar("ClientT")


def shared_botocore_session() -> Any:
    """The botocore session under boto3's default session, which ``new_client`` builds every client from:
    one set of credentials, configuration and event hooks per process."""
    if boto3.DEFAULT_SESSION is None:
        boto3.setup_default_session()
    return boto3.DEFAULT_SESSION._session  # type: ignore[union-attr]


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
    """A new boto3 client for ``service``; ``config`` holds ``botocore.config.Config`` arguments."""
    return boto3.client(service, region_name=region, endpoint_url=endpoint_url,  # type: ignore[call-overload]
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
