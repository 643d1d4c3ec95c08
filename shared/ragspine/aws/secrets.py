"""Secrets Manager through Powertools Parameters: read once per cold start, cached for ``max_age`` seconds.

Only the secret's name or ARN travels in the environment; its value lives in Secrets Manager.
A missing, unreadable or malformed secret is a ``ConfigurationError`` that names the secret and
the setting, never any part of the value.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.utilities import parameters
from aws_lambda_powertools.utilities.parameters.exceptions import GetParameterError, TransformParameterError
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import new_client
from ragspine.errors import ConfigurationError


@lru_cache(maxsize=4)
def _provider(region: str | None) -> parameters.SecretsProvider:
    """One provider (and cache) per region for the process."""
    return parameters.SecretsProvider(boto_config=Config(region_name=region) if region else None)


def _reason(exc: BaseException) -> str:
    """The AWS error code behind a failed read (ResourceNotFoundException, AccessDeniedException...)."""
    for candidate in (exc, exc.__cause__, exc.__context__):
        if isinstance(candidate, ClientError):
            return str(candidate.response.get("Error", {}).get("Code", "ClientError"))
    return type(exc.__cause__ or exc.__context__ or exc).__name__


def read_secret(name: str, *, setting: str, region: str | None, max_age_s: int, as_json: bool) -> Any:
    """The secret's value (parsed JSON when ``as_json``), from the process cache when fresh.

    Raises:
        ConfigurationError: the secret is missing, unreadable, empty or (``as_json``) not JSON.
    """
    try:
        value = _provider(region).get(name, max_age=max_age_s, transform="json" if as_json else None)
    except TransformParameterError:
        raise ConfigurationError(f"the secret {name!r} ({setting}) is not valid JSON: store a JSON object") from None
    except GetParameterError as exc:
        raise ConfigurationError(
            f"the secret {name!r} ({setting}) could not be read ({_reason(exc)}): create it in Secrets Manager "
            "and allow this function secretsmanager:GetSecretValue on it (docs/aws.md, Deploying)") from None
    if value in (None, "", b""):
        raise ConfigurationError(f"the secret {name!r} ({setting}) is empty: give it a value")
    return value


def update_json_secret(name: str, *, setting: str, region: str | None, change: Any) -> None:
    """Read the secret's current JSON (bypassing the cache), apply ``change`` to it and store the new version.

    Raises:
        ConfigurationError: the secret cannot be read, is not a JSON object, or cannot be written.
    """
    client = new_client("secretsmanager", region=region)
    try:
        current = json.loads(client.get_secret_value(SecretId=name)["SecretString"])
    except (ClientError, BotoCoreError, KeyError, ValueError) as exc:
        raise ConfigurationError(
            f"the secret {name!r} ({setting}) could not be read as JSON ({_reason(exc)})") from None
    if not isinstance(current, dict):
        raise ConfigurationError(f"the secret {name!r} ({setting}) must hold a JSON object")
    try:
        client.put_secret_value(SecretId=name, SecretString=json.dumps(change(current)))
    except (ClientError, BotoCoreError) as exc:
        raise ConfigurationError(f"the secret {name!r} ({setting}) could not be written ({_reason(exc)}): "
                                 "allow secretsmanager:PutSecretValue on it") from None
    _provider(region).clear_cache()  # type: ignore[no-untyped-call]  # untyped in Powertools
