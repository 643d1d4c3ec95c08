"""Variable references between Dify templates and n8n expressions.

Dify writes ``{{#node_id.var#}}``; n8n writes ``={{ $('Node name').item.json.var }}``. Only
plain references translate; any other n8n JavaScript stays as literal text and is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ragspine.workflows.dsl import REFERENCE

_SEGMENT = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_HEAD = re.compile(r"""\s*(?:
      \$\(\s*(?P<q1>['"])(?P<name1>.+?)(?P=q1)\s*\)\s*\.\s*(?:item|first\(\)|last\(\)|all\(\)\[0\])\s*\.json
    | \$node\[\s*(?P<q2>['"])(?P<name2>.+?)(?P=q2)\s*\]\s*\.json
    | \$input\.(?:item|first\(\))\.json
    | \$json
    )""", re.VERBOSE)
_TOKEN = re.compile(r"""\s*(?:\.(?P<ident>[A-Za-z_$][\w$]*)
                        |\[\s*(?:'(?P<sq>[^']*)'|"(?P<dq>[^"]*)"|(?P<num>\d+))\s*\])""", re.VERBOSE)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
# Resolves (node name or None for "the current input", json path) to a Dify selector.
N8nResolver = Callable[[str | None, tuple[str, ...]], tuple[str, ...] | None]
# Maps a Dify selector to an n8n expression (without the braces).
DifyResolver = Callable[[tuple[str, ...]], str | None]


@dataclass(frozen=True, slots=True)
class N8nRef:
    """A plain n8n reference: the node it names (None for ``$json``) and the json path."""

    node: str | None
    path: tuple[str, ...]


def parse_n8n_ref(expression: str) -> N8nRef | None:
    """Parse ``$('X').item.json.a['b']``-style expressions; None for anything more complex."""
    head = _HEAD.match(expression)
    if head is None:
        return None
    path = parse_path(expression[head.end():])
    if path is None:
        return None
    return N8nRef(head.group("name1") or head.group("name2"), path)


def parse_path(text: str) -> tuple[str, ...] | None:
    """Split ``.a['b'][0]`` into ``('a', 'b', '0')``; None when the text is not only a path."""
    path: list[str] = []
    position = 0
    while (token := _TOKEN.match(text, position)) is not None:
        path.append(next(v for v in token.groups() if v is not None))
        position = token.end()
    return tuple(path) if not text[position:].strip() else None


def n8n_path(path: tuple[str, ...]) -> str:
    """A json path as n8n writes it: ``.name`` for identifiers, ``['key']`` otherwise."""
    return "".join(f".{p}" if _IDENT.fullmatch(p) else "['" + p.replace("'", "\\'") + "']" for p in path)


def node_expression(name: str, path: tuple[str, ...]) -> str:
    """``$('name').item.json<path>``."""
    return "$('" + name.replace("\\", "\\\\").replace("'", "\\'") + "').item.json" + n8n_path(path)


def from_n8n(value: str, resolve: N8nResolver) -> tuple[str, list[str]]:
    """An n8n parameter string as Dify template text, plus the expressions it could not translate."""
    if not value.startswith("="):
        return value, []
    problems: list[str] = []

    def swap(match: re.Match[str]) -> str:
        ref = parse_n8n_ref(match.group(1))
        selector = resolve(ref.node, ref.path) if ref is not None else None
        if selector is None:
            problems.append(match.group(0).strip())
            return match.group(0)
        return "{{#" + ".".join(selector) + "#}}"

    return _SEGMENT.sub(swap, value[1:]), problems


def to_n8n(text: str, resolve: DifyResolver) -> tuple[str, list[str]]:
    """A Dify template as an n8n parameter (``=`` prefixed when it holds expressions), plus failures."""
    problems: list[str] = []
    found = False

    def swap(match: re.Match[str]) -> str:
        nonlocal found
        expression = resolve(tuple(match.group(1).split(".")))
        if expression is None:
            problems.append(match.group(0))
            return match.group(0)
        found = True
        return "{{ " + expression + " }}"

    converted = REFERENCE.sub(swap, text)
    return ("=" + converted if found else converted), problems
