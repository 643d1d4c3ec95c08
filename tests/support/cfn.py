"""Read ``template.yaml`` in tests and find the external tools that check and build it.

The tests derive their moto resources from the template instead of repeating key schemas,
so a change to the deployed table shows up in every test that uses it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_PATH = REPO_ROOT / "template.yaml"
DEFAULT_TOOLS_VENV = REPO_ROOT / ".venv-tools"
TOOLS_VENV_ENV = "RAGSPINE_TOOLS_VENV"


class CfnLoader(yaml.SafeLoader):
    """A SafeLoader that reads CloudFormation short-form tags as their long form.

    ``!Ref X`` becomes ``{"Ref": "X"}``, ``!GetAtt A.B`` becomes ``{"Fn::GetAtt": ["A", "B"]}``
    and any other ``!Name value`` becomes ``{"Fn::Name": value}``, which is exactly what the
    JSON form of the template would hold.
    """


def _construct_intrinsic(loader: CfnLoader, tag_suffix: str, node: yaml.Node) -> dict[str, Any]:
    """Turn one short-form tagged node into its long-form mapping."""
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    elif isinstance(node, yaml.MappingNode):
        value = loader.construct_mapping(node, deep=True)
    else:
        raise yaml.constructor.ConstructorError(
            None, None, f"unexpected node for !{tag_suffix}", node.start_mark
        )
    if tag_suffix in ("Ref", "Condition"):
        # The only two intrinsics whose long form has no "Fn::" prefix.
        return {tag_suffix: value}
    if tag_suffix == "GetAtt" and isinstance(value, str):
        resource, _, attribute = value.partition(".")
        return {"Fn::GetAtt": [resource, attribute]}
    return {f"Fn::{tag_suffix}": value}


CfnLoader.add_multi_constructor("!", _construct_intrinsic)


def load_template(path: Path | str | None = None) -> dict[str, Any]:
    """Parse a SAM/CloudFormation template, short-form tags included.

    Args:
        path: the template file; the repository's ``template.yaml`` when omitted.

    Returns:
        The template as plain dicts, lists and scalars.
    """
    text = Path(path or TEMPLATE_PATH).read_text(encoding="utf-8")
    # yaml.load is safe here: CfnLoader derives from SafeLoader and only adds intrinsic tags.
    document = yaml.load(text, Loader=CfnLoader)
    if not isinstance(document, dict):
        raise ValueError(f"{path or TEMPLATE_PATH} is not a template mapping")
    return document


def resource_properties(template: dict[str, Any], logical_id: str, resource_type: str) -> dict[str, Any]:
    """Return the ``Properties`` of one resource, checking that it has the expected type.

    Raises:
        KeyError: when the template has no resource of that logical id and type.
    """
    resource = template.get("Resources", {}).get(logical_id)
    if resource is None or resource.get("Type") != resource_type:
        raise KeyError(f"template has no {resource_type} named {logical_id!r}")
    return dict(resource.get("Properties", {}))


NO_VALUE = object()  # what ``!Ref AWS::NoValue`` resolves to: the property is left out


def resolve(value: Any, template: dict[str, Any], parameters: dict[str, str] | None = None) -> Any:
    """``value`` with the condition intrinsics worked out for the given parameter values.

    Handles ``Ref`` to a parameter (its given value, else its default) or to ``AWS::NoValue``
    (:data:`NO_VALUE`), ``Fn::If`` and the condition functions ``Fn::Equals``, ``Fn::Not``,
    ``Fn::And``, ``Fn::Or`` and ``Condition``; anything else is returned as it is.

    Raises:
        KeyError: a parameter or condition the template does not declare.
    """
    given = parameters or {}
    if not isinstance(value, dict) or len(value) != 1:
        return value
    (name, argument), = value.items()
    if name == "Ref":
        if argument == "AWS::NoValue":
            return NO_VALUE
        declared = template["Parameters"].get(argument)
        if declared is None:
            return value  # a resource: its physical id is only known once deployed
        return given.get(argument, str(declared.get("Default", "")))
    if name == "Condition":
        return bool(resolve(template["Conditions"][argument], template, given))
    if name == "Fn::If":
        condition, when_true, when_false = argument
        holds = resolve({"Condition": condition}, template, given)
        return resolve(when_true if holds else when_false, template, given)
    if name == "Fn::Equals":
        left, right = (resolve(part, template, given) for part in argument)
        return str(left) == str(right)
    if name == "Fn::Not":
        return not resolve(argument[0], template, given)
    if name == "Fn::And":
        return all(resolve(part, template, given) for part in argument)
    if name == "Fn::Or":
        return any(resolve(part, template, given) for part in argument)
    return value


def dynamodb_create_table_kwargs(logical_id: str, table_name: str) -> dict[str, Any]:
    """Build ``dynamodb_client.create_table(**kwargs)`` arguments from a template table.

    Args:
        logical_id: the ``AWS::DynamoDB::Table`` resource in ``template.yaml``.
        table_name: the physical name to create (CloudFormation would generate one).

    Returns:
        TableName, KeySchema, AttributeDefinitions, BillingMode and, when the template
        declares them, GlobalSecondaryIndexes and ProvisionedThroughput.
    """
    props = resource_properties(load_template(), logical_id, "AWS::DynamoDB::Table")
    kwargs: dict[str, Any] = {
        "TableName": table_name,
        "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"],
        "BillingMode": props.get("BillingMode", "PROVISIONED"),
    }
    if "ProvisionedThroughput" in props:
        kwargs["ProvisionedThroughput"] = props["ProvisionedThroughput"]
    indexes = props.get("GlobalSecondaryIndexes")
    if indexes:
        kwargs["GlobalSecondaryIndexes"] = [
            {
                key: index[key]
                for key in ("IndexName", "KeySchema", "Projection", "ProvisionedThroughput")
                if key in index
            }
            for index in indexes
        ]
    return kwargs


def tools_bin() -> Path:
    """The ``bin`` folder of the tools virtualenv (``$RAGSPINE_TOOLS_VENV`` or ``.venv-tools``)."""
    venv = os.environ.get(TOOLS_VENV_ENV) or DEFAULT_TOOLS_VENV
    return Path(venv) / "bin"


def tool(name: str) -> Path:
    """Locate ``sam`` or ``cfn-lint`` in the tools virtualenv.

    Raises:
        FileNotFoundError: with a message telling the reader to run ``make tools``.
    """
    path = tools_bin() / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{name} not found at {path}: run `make tools` to create the tools virtualenv, "
            f"or point {TOOLS_VENV_ENV} at an existing one"
        )
    return path


def _version_key(path: Path) -> tuple[int, ...]:
    """Sort key for pyenv version folders such as ``3.12.10``."""
    return tuple(int(part) for part in re.findall(r"\d+", path.name))


def _pyenv_root() -> Path | None:
    """The pyenv root from ``$PYENV_ROOT``, ``pyenv root`` or ``~/.pyenv``."""
    if root := os.environ.get("PYENV_ROOT"):
        return Path(root)
    if pyenv := shutil.which("pyenv"):
        done = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False)
        if done.returncode == 0 and done.stdout.strip():
            return Path(done.stdout.strip())
    fallback = Path.home() / ".pyenv"
    return fallback if fallback.is_dir() else None


def python312_dir() -> Path | None:
    """A folder holding a working ``python3.12``, for ``sam build`` to find on PATH.

    Prefers the newest ``<pyenv root>/versions/3.12.*/bin``; otherwise any ``python3.12``
    on PATH that actually runs (a pyenv shim without a selected version does not).
    """
    root = _pyenv_root()
    if root is not None:
        candidates = sorted((root / "versions").glob("3.12.*"), key=_version_key, reverse=True)
        for version in candidates:
            if (version / "bin" / "python3.12").is_file():
                return version / "bin"
    found = shutil.which("python3.12")
    if found is not None:
        probe = subprocess.run([found, "-c", "pass"], capture_output=True, check=False)
        if probe.returncode == 0:
            return Path(found).parent
    return None
