"""The process's AWS session forgotten, for tests that change the environment it was read from."""

from __future__ import annotations

from ragspine.aws import boto3_client


def forget_shared_session() -> None:
    """Drop the session ``boto3_client`` built, so the next client reads the environment again."""
    boto3_client._SESSION.clear()
