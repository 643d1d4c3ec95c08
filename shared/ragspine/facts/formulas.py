"""Formula metrics: a metric defined over other metrics (``OPERATING_MARGIN = OPERATING_INCOME / REVENUE``).

A formula is read with ``ast`` and only a whitelist is accepted: metric codes, numbers,
``+ - * /``, unary minus, parentheses, ``ABS(…)`` (the size of a figure whatever its sign:
capex is written ``(1,234)`` in one statement and ``1,234`` in another), and two functions of a
balance over the year before: ``AVG(X)`` (the mean of the opening and closing balances, the year-end
balance alone when the opening one is not stated) and ``PRIOR(X)`` (the balance a year before,
for a change in inventories); their argument is a metric code. Nothing is ever
evaluated by Python itself; the tree is walked here over ``Decimal`` values, so a formula can
only do arithmetic.

A formula whose metric is kept in ``PCT`` gives a percentage: the ratio is multiplied by 100.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation

from ragspine.facts.unit_scales import money_unit

MAX_FORMULA_CHARS = 300
ABS = "ABS"  # the size of a figure, whatever sign it is written with
AVG = "AVG"  # the mean of a balance at the period's end and a year before (turnovers, day counts)
PRIOR = "PRIOR"  # a balance a year before the period (a change in inventories)
PRIOR_SUFFIX = "@PRIOR"  # the value key of a metric a year before: ``INVENTORIES@PRIOR``
_ALLOWED = "only metric codes, numbers, + - * /, ABS(…), AVG(METRIC), PRIOR(METRIC) and parentheses"
PERCENT_UNITS = frozenset({"PCT"})
# Units of a pure number: a ratio, a multiple, a number of days or times.
DIMENSIONLESS_UNITS = frozenset({"PCT", "RATIO", "TIMES", "X", "DAYS", "MULTIPLE"})


class FormulaError(ValueError):
    """A formula that cannot be read: the message says what is wrong and what is allowed."""


@dataclass(frozen=True, slots=True)
class Formula:
    """A parsed formula: its text, its tree and the metric codes it reads (in order of appearance)."""

    text: str
    tree: ast.expr
    inputs: tuple[str, ...]
    averaged: tuple[str, ...] = ()  # codes under AVG(…): looked up a year before as well, when stated
    prior: tuple[str, ...] = ()  # codes under PRIOR(…): needed a year before

    def evaluate(self, values: Mapping[str, Decimal]) -> Decimal | None:
        """The value for ``values`` of every input; None when it divides by zero or is not finite.

        A metric a year before is keyed ``CODE@PRIOR``; ``AVG(CODE)`` without it is the year-end value.
        """
        try:
            result = _eval(self.tree, values)
        except (DivisionByZero, InvalidOperation, ZeroDivisionError):
            return None
        return result if result.is_finite() else None  # a constant too large for a float (1e400)


_ALLOWED_BINOPS: dict[type[ast.operator], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


def parse_formula(text: str) -> Formula:
    """Read ``text`` (metric codes, numbers, + - * /, parentheses) into a ``Formula``.

    Raises:
        FormulaError: anything else (a call, an attribute, a power, a comparison ...) or bad syntax.
    """
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("the formula is empty: write e.g. OPERATING_INCOME / REVENUE")
    if len(text) > MAX_FORMULA_CHARS:
        raise FormulaError(f"the formula has {len(text)} characters; at most {MAX_FORMULA_CHARS}")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise FormulaError(f"the formula {text!r} is not valid: {exc.msg}; use {_ALLOWED[5:]}") from exc
    inputs: dict[str, None] = {}
    _check(tree, text, inputs)
    averaged = tuple(dict.fromkeys(_balance_args(tree, AVG)))
    prior = tuple(dict.fromkeys(_balance_args(tree, PRIOR)))
    return Formula(text.strip(), tree, tuple(inputs), averaged, prior)


def _call_of(node: ast.AST, name: str) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
            and len(node.args) == 1 and not node.keywords)


def _is_abs(node: ast.AST) -> bool:
    return _call_of(node, ABS)


def _balance_args(tree: ast.AST, name: str) -> list[str]:
    return [node.args[0].id for node in ast.walk(tree)
            if _call_of(node, name) and isinstance(node, ast.Call) and isinstance(node.args[0], ast.Name)]


def _check(node: ast.AST, text: str, inputs: dict[str, None]) -> None:
    if _is_abs(node):
        assert isinstance(node, ast.Call)
        _check(node.args[0], text, inputs)
    elif (_call_of(node, AVG) or _call_of(node, PRIOR)) and isinstance(node, ast.Call):
        if not isinstance(node.args[0], ast.Name):
            what = ast.get_source_segment(text.strip(), node) or "the call"
            raise FormulaError(f"the formula {text!r} uses {what!r}: AVG(…) and PRIOR(…) take one metric code, "
                               "e.g. AVG(TOTAL_ASSETS)")
        inputs[node.args[0].id] = None
    elif isinstance(node, ast.BinOp) and type(node.op) in _ALLOWED_BINOPS:
        _check(node.left, text, inputs)
        _check(node.right, text, inputs)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        _check(node.operand, text, inputs)
    elif isinstance(node, ast.Name):
        inputs[node.id] = None
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return
    else:
        what = ast.get_source_segment(text.strip(), node) or type(node).__name__
        raise FormulaError(f"the formula {text!r} uses {what!r}, which is not allowed: {_ALLOWED}")


def _eval(node: ast.expr, values: Mapping[str, Decimal]) -> Decimal:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and isinstance(node.args[0], ast.Name) \
            and node.func.id in (AVG, PRIOR):
        code = node.args[0].id
        before = values.get(code + PRIOR_SUFFIX)
        if node.func.id == PRIOR:
            return values[code + PRIOR_SUFFIX]
        return values[code] if before is None else (values[code] + before) / 2
    if isinstance(node, ast.Call):  # parse_formula admits no other call but ABS(x)
        return abs(_eval(node.args[0], values))
    if isinstance(node, ast.BinOp):
        return _ALLOWED_BINOPS[type(node.op)](_eval(node.left, values), _eval(node.right, values))
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, values)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Name):
        return values[node.id]
    assert isinstance(node, ast.Constant)  # parse_formula admits nothing else
    return Decimal(str(node.value))


# --- dimensions: what a formula's result measures, for `domain check` -------------------------

Dimension = tuple[tuple[str, int], ...]  # sorted (base, power) pairs; () is a pure number
_NUMBER: Dimension = ()


def unit_dimension(unit: str, currencies: Mapping[str, str | None] | None = None) -> Dimension:
    """``money`` for any currency (scale aside), ``count`` for COUNT, nothing for ratios, else the unit."""
    if unit in DIMENSIONLESS_UNITS:
        return _NUMBER
    if unit == "MONEY":  # the finance pack's amount in whatever currency the statement uses
        return (("money", 1),)
    if (currencies or {}).get(unit) or money_unit(unit) is not None:
        return (("money", 1),)
    return ((unit.lower(), 1),)


def _combine(a: Dimension, b: Dimension, sign: int) -> Dimension:
    powers = dict(a)
    for base, power in b:
        powers[base] = powers.get(base, 0) + sign * power
    return tuple(sorted((k, v) for k, v in powers.items() if v))


def formula_dimension(formula: Formula, dimension_of: Callable[[str], Dimension]) -> Dimension:
    """The dimension of the result.

    Raises:
        FormulaError: two terms added or subtracted measure different things (money + percent).
    """
    def walk(node: ast.expr) -> Dimension:
        if isinstance(node, ast.BinOp):
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Mult):
                return _combine(left, right, 1)
            if isinstance(node.op, ast.Div):
                return _combine(left, right, -1)
            if left != right:
                what = ast.get_source_segment(formula.text, node) or formula.text
                raise FormulaError(f"{what!r} adds or subtracts figures of different units "
                                   f"({_show(left)} and {_show(right)})")
            return left
        if isinstance(node, ast.UnaryOp):
            return walk(node.operand)
        if isinstance(node, ast.Call):  # ABS(x) measures what x measures
            return walk(node.args[0])
        if isinstance(node, ast.Name):
            return dimension_of(node.id)
        return _NUMBER

    return walk(formula.tree)


def _show(dimension: Dimension) -> str:
    if not dimension:
        return "a pure number"
    return " × ".join(base if power == 1 else f"{base}^{power}" for base, power in dimension)


def formula_problems(metrics: Mapping[str, Mapping[str, object]],
                     currencies: Mapping[str, str | None] | None = None, *,
                     check_units: bool = True) -> list[tuple[str, str]]:
    """Every problem of the glossary's formulas as ``(metric code, message)``: syntax, unknown metric,
    cycle, unit mismatch. Empty when every formula can be computed."""
    problems: list[tuple[str, str]] = []
    parsed: dict[str, Formula] = {}
    for code, spec in metrics.items():
        text = spec.get("formula")
        if text is None:
            continue
        try:
            parsed[code] = parse_formula(str(text))
        except FormulaError as exc:
            problems.append((code, str(exc)))
    for code, formula in parsed.items():
        unknown = [name for name in formula.inputs if name not in metrics]
        if unknown:
            problems.append((code, f"the formula names {', '.join(unknown)}, which is not a metric of the glossary: "
                                   "use metric codes (upper case), or add the metric"))
    for code in parsed:
        cycle = _cycle_from(code, parsed)
        if cycle:
            problems.append((code, "the formula depends on itself: " + " -> ".join(cycle)))
    for code, formula in parsed.items():
        if not check_units or any(name not in metrics for name in formula.inputs):
            continue
        problems += _unit_problems(code, formula, metrics, currencies)
    return problems


def _unit_problems(code: str, formula: Formula, metrics: Mapping[str, Mapping[str, object]],
                   currencies: Mapping[str, str | None] | None) -> list[tuple[str, str]]:
    unit = str(metrics[code].get("unit", ""))
    try:
        got = formula_dimension(formula, lambda name: unit_dimension(str(metrics[name].get("unit", "")), currencies))
    except FormulaError as exc:
        return [(code, str(exc))]
    wanted = unit_dimension(unit, currencies)
    if got != wanted:
        return [(code, f"the formula gives {_show(got)} but the metric's unit {unit} measures {_show(wanted)}: "
                       "change the unit or the formula")]
    return []


def _cycle_from(start: str, parsed: Mapping[str, Formula]) -> list[str]:
    """The path back to ``start`` through formula inputs, or [] when there is none."""
    stack: list[tuple[str, list[str]]] = [(name, [start, name]) for name in parsed[start].inputs]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        if name == start:
            return path
        if name in seen or name not in parsed:
            continue
        seen.add(name)
        stack.extend((nxt, [*path, nxt]) for nxt in parsed[name].inputs)
    return []


def formulas_of(metrics: Mapping[str, Mapping[str, object]]) -> dict[str, Formula]:
    """The parsed formula of every metric that has one.

    Raises:
        FormulaError: a formula is unreadable, names an unknown metric, or depends on itself.
    """
    problems = formula_problems(metrics, check_units=False)  # units are `domain check`'s to judge
    if problems:
        code, message = problems[0]
        raise FormulaError(f"metric {code}: {message}")
    return {code: parse_formula(str(spec["formula"])) for code, spec in metrics.items()
            if spec.get("formula") is not None}
