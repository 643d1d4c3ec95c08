"""The shared session's model loader reads a service's own folder, not the listing of every service.

botocore checks a service's name against the listing of all ~450 service folders before it reads the
service's model, twice for a first client; ``ServiceFolderLoader`` looks the name up in its own folder
and reads botocore's own files, so a client is built from the same models and an unknown name fails
as botocore fails it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from botocore.exceptions import UnknownServiceError
from botocore.loaders import Loader

from ragspine.aws.boto3_client import ServiceFolderLoader, shared_botocore_session
from tests.support.aws_session import forget_shared_session
from tests.support.cfn import REPO_ROOT

SERVICES = ("dynamodb", "s3", "stepfunctions", "secretsmanager", "bedrock-runtime")


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("type_name", ["service-2", "endpoint-rule-set-1"])
def test_a_service_model_is_botocores_own(service: str, type_name: str) -> None:
    # GIVEN botocore's loader and the folder-first one, over botocore's data
    # WHEN each reads a service's model
    # THEN both read the same model
    assert ServiceFolderLoader().load_service_model(service, type_name) == Loader().load_service_model(
        service, type_name)


@pytest.mark.parametrize("name", ["dynamodbx", "../botocore", "dynamodb/2012-08-10", "..", ""])
def test_an_unknown_service_fails_as_botocore_fails_it(name: str) -> None:
    # GIVEN a name that is no service's folder (a misspelling, a path)
    # WHEN a model is asked for by that name
    with pytest.raises(UnknownServiceError) as raised:
        ServiceFolderLoader().load_service_model(name, "service-2")
    # THEN botocore's error says so and names the services there are
    assert "dynamodb" in str(raised.value)
    assert name not in ServiceFolderLoader().list_available_services("service-2")


def test_the_listing_asked_for_whole_is_botocores() -> None:
    # GIVEN both loaders
    listed = ServiceFolderLoader().list_available_services("service-2")
    # THEN iterated, counted and indexed, the folder-first listing is botocore's
    assert list(listed) == Loader().list_available_services("service-2")
    assert len(listed) > 300
    assert listed[0] == Loader().list_available_services("service-2")[0]


@pytest.fixture
def own_session() -> Iterator[None]:
    """The shared session built afresh for the test, from its environment, and forgotten after it."""
    forget_shared_session()
    yield
    forget_shared_session()


@pytest.mark.usefixtures("own_session")
def test_a_model_under_aws_data_path_is_read_as_botocore_reads_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a service model of one's own in a folder that AWS_DATA_PATH names, in two versions
    model = {"metadata": {"apiVersion": "2021-01-01", "serviceId": "Own"}, "operations": {}, "shapes": {}}
    for version in ("2020-01-01", "2021-01-01"):
        folder = tmp_path / "own-service" / version
        folder.mkdir(parents=True)
        (folder / "service-2.json").write_text(json.dumps({**model, "version": version}), encoding="utf-8")
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    # WHEN the shared session's loader reads it
    loader = shared_botocore_session().get_component("data_loader")
    # THEN it is the folder-first loader, and it reads the latest version, as botocore's loader for that path does
    assert isinstance(loader, ServiceFolderLoader)
    assert loader.load_service_model("own-service", "service-2")["version"] == "2021-01-01"
    assert loader.load_service_model("own-service", "service-2") == Loader(
        extra_search_paths=[str(tmp_path)]).load_service_model("own-service", "service-2")
    assert "own-service" in loader.list_available_services("service-2")


_BUILD_CLIENT = textwrap.dedent(
    """
    import json, os, sys
    import botocore
    data = os.path.join(os.path.dirname(botocore.__file__), "data")
    listed = []
    sys.addaudithook(lambda event, args: listed.append(args[0]) if event == "os.listdir" and
                     os.path.realpath(str(args[0])) == os.path.realpath(data) else None)
    from ragspine.aws.boto3_client import new_client
    client = new_client("dynamodb", region="us-east-1")
    print(json.dumps({"operations": len(client.meta.service_model.operation_names), "data_listed": len(listed)}))
    """
)


def test_building_a_client_does_not_list_botocores_data_folder() -> None:
    # GIVEN a fresh interpreter
    # WHEN the shared session builds its first DynamoDB client
    done = subprocess.run([sys.executable, "-c", _BUILD_CLIENT], cwd=REPO_ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT / "shared"),
                               "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"},
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    # THEN the client has DynamoDB's operations, and botocore's data folder was never listed
    assert outcome["operations"] > 40
    assert outcome["data_listed"] == 0
