"""Writes the parsed copies (``parsed.json``) of the engine's shipped YAML folders.

Run ``python -m tools.parsed_yaml`` after changing a YAML file under ``shared/ragspine/config`` or
``shared/ragspine/shipped_domains``; ``tests/unit/core/test_parsed_yaml.py`` fails while a copy is not
current (the service would still read the file, parsing it with PyYAML: ``ragspine.parsed_yaml``).
"""

from __future__ import annotations

from pathlib import Path

from ragspine.parsed_yaml import write_parsed

ENGINE = Path(__file__).resolve().parents[1] / "shared" / "ragspine"
# The folders whose YAML a service start reads: the engine's configuration, the shipped domains and packs.
SHIPPED_FOLDERS = ("config", "shipped_domains", "shipped_domains/acme", "shipped_domains/vela",
                   "shipped_domains/packs")
REGENERATE = "python -m tools.parsed_yaml"


def main() -> None:
    """Rewrite every shipped folder's parsed copies."""
    for folder in SHIPPED_FOLDERS:
        print(write_parsed(ENGINE / folder))


if __name__ == "__main__":
    main()
