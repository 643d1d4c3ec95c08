"""``LazyClient``: an adapter's AWS SDK client, injected (tests) or built on first use.

Clients are built by botocore from one session per process; boto3 itself is never imported. What
boto3 adds over botocore is resources and S3's transfer methods, which no adapter calls, and importing
it costs a cold start some 20-30 ms of CPU (``s3transfer``, ``multiprocessing``, its resource
factory). A client built here is the client ``boto3.client`` would build: the same service model,
credentials chain, configuration and event hooks (so moto and the X-Ray SDK see its calls).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast, overload

import botocore.session
from botocore.config import Config
from botocore.exceptions import DataNotFoundError
from botocore.loaders import Loader

ClientT = TypeVar("ClientT")
# The process's session, built on first use (tests/support/aws_session.py forgets it between tests).
_SESSION: list[botocore.session.Session] = []


class ServiceNames(Sequence[str]):
    """The services a loader holds models of for ``type_name``, as botocore's ``list_available_services``
    lists them, but asked about one name by reading that service's folder alone. Iterated, counted or
    indexed, it is the whole sorted listing, read then (and kept)."""

    def __init__(self, loader: Loader, type_name: str) -> None:
        self._loader = loader
        self._type_name = type_name
        self._every: list[str] | None = None

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str) or not name or os.sep in name or name in (os.curdir, os.pardir):
            return False
        try:
            return bool(self._loader.list_api_versions(name, self._type_name))
        except DataNotFoundError:
            return False

    def _listing(self) -> list[str]:
        if self._every is None:
            self._every = list(Loader.list_available_services(self._loader, self._type_name))
        return self._every

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._listing()[index]

    def __len__(self) -> int:
        return len(self._listing())


class ServiceFolderLoader(Loader):
    """botocore's loader, which checks a service's name against the listing of every service before it
    reads that service's model: the listing reads some 450 folders of botocore's data, about 8 ms of CPU
    per model type, twice for a first client (its model and its endpoint rules). Here the name is looked
    up in its own folder; an unknown name still raises botocore's ``UnknownServiceError`` naming every
    known service, and the models read are botocore's own files."""

    def list_available_services(self, type_name: str) -> ServiceNames:  # type: ignore[override]
        return ServiceNames(self, type_name)


def _data_loader(data_path: str | None) -> ServiceFolderLoader:
    """The loader ``botocore.loaders.create_loader`` builds for ``data_path`` (``AWS_DATA_PATH``)."""
    if data_path is None:
        return ServiceFolderLoader()
    return ServiceFolderLoader(extra_search_paths=[str(Path(os.path.expandvars(path)).expanduser())
                                                   for path in data_path.split(os.pathsep)])


def shared_botocore_session() -> Any:
    """The botocore session ``new_client`` builds every client from: one set of credentials,
    configuration and event hooks per process, built on first use (from the environment then), its
    models read by a ``ServiceFolderLoader``."""
    if not _SESSION:
        session = botocore.session.get_session()
        session.register_component("data_loader", _data_loader(session.get_config_variable("data_path")))
        _SESSION.append(session)
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
