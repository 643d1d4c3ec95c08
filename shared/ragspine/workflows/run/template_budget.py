"""Jinja2 rendering with a budget: steps, a deadline, the size of every value made, and the output size.

The sandbox stops attribute tricks, not work. Here every loop iteration (each ``for`` is
rewritten to iterate through :meth:`BudgetedSandbox.budget_iter`), every call and every filter
is a step; the deadline is checked at each step; ``*``, ``**``, ``+`` and ``~`` refuse results
over the output limit before making them, and an integer argument over that limit is refused
(``'x'|center(10**9)``), and so is a width or precision over it in a format (``%``, the ``format``
filter, ``str.format``); ``range`` and ``lipsum`` are capped; joins, sums and translations are
measured before they run; a list or dict a call grows in place is checked after the call; every
piece written, to the output or to a ``set`` block or macro buffer, is counted as it is produced.
One step can still do bounded work (at most one value of ``max_output`` size).
"""

from __future__ import annotations

import functools
import math
import re
import string
import time
from collections.abc import Callable, Iterator
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import Namespace, generate_lorem_ipsum

_SIZED = (str, bytes, list, tuple)
_MAX_INT_BITS = 4096
# Everything a render writes (its output, ``set`` blocks, macro bodies) may total this many times the output limit.
WRITE_FACTOR = 4
# Filters and str methods whose integer argument is a size to allocate (a width, a count).
_SIZE_ARGUMENTS = frozenset({"center", "indent", "wordwrap", "truncate", "ljust", "rjust", "zfill", "expandtabs",
                             "batch", "slice"})
# A printf conversion's width and precision (``%08.3f``, ``%*d``, ``%(name)10s``).
_PRINTF_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_CONTAINERS = (list, dict, set, bytearray)
# Filters that turn their value into text first: a container's text is measured before it is made.
_TEXT_FILTERS = frozenset({"string", "pprint", "tojson", "e", "escape", "forceescape", "safe", "upper", "lower",
                           "title", "capitalize", "trim", "striptags", "urlize", "urlencode", "wordcount", "center",
                           "indent", "truncate", "wordwrap", "replace", "format", "xmlattr"})
# JSON indentation multiplies with the nesting depth and the item count; no real template needs more.
_MAX_JSON_INDENT = 64
# Filters that copy each string of a list (case-folding for comparison): the copies may total this many outputs.
_COPYING_FILTERS = frozenset({"sort", "unique", "min", "max", "groupby", "dictsort"})
_COPY_FACTOR = 64
# Filters whose arguments name attributes or pass plain values: a container or a long text there only
# feeds error messages and lookups that repeat it.
_ATTRIBUTE_FILTERS = frozenset({"groupby", "sum", "map", "select", "reject", "selectattr", "rejectattr", "sort",
                                "unique", "min", "max", "dictsort", "attr"})
_MAX_ATTRIBUTE_TEXT = 1000


class TemplateBudgetError(SecurityError):
    """The template went over its step, time or size budget."""


class BudgetedSandbox(SandboxedEnvironment):
    """A sandboxed environment whose renders are bounded; make one per render (it holds the spent budget)."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *, max_steps: int, max_output: int, timeout_seconds: float) -> None:
        super().__init__(autoescape=False, keep_trailing_newline=True)
        self.max_steps, self.max_output, self.timeout_seconds = max_steps, max_output, timeout_seconds
        self.steps = 0
        self.written = 0
        self.deadline = math.inf
        self.globals["range"] = self.budget_range
        self.globals["lipsum"] = self.budget_lipsum
        self.filters = {name: self._budgeted_filter(name, f) for name, f in self.filters.items()}

    def start(self) -> None:
        """Begin a render: the deadline runs from now."""
        self.steps = 0
        self.written = 0
        self.deadline = time.monotonic() + self.timeout_seconds

    def step(self) -> None:
        """Spend one step.

        Raises:
            TemplateBudgetError: the step budget or the time limit is spent.
        """
        self.steps += 1
        if self.steps > self.max_steps:
            raise TemplateBudgetError(f"the template took more than {self.max_steps} steps")
        if time.monotonic() > self.deadline:
            raise TemplateBudgetError(f"the template ran longer than {self.timeout_seconds:g} s")

    def _fits(self, value: Any) -> Any:
        if isinstance(value, _SIZED) and len(value) > self.max_output:
            raise TemplateBudgetError(f"the template made a value longer than {self.max_output} items")
        if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
            raise TemplateBudgetError(f"the template made an integer over {_MAX_INT_BITS} bits")
        return value

    def _check_text(self, value: Any) -> None:
        """Refuse ``value`` when its text (``str()``) would pass the output limit, before that text is made.

        A container's text repeats every item it refers to, so a short list of one long string can
        stand for gigabytes: the walk counts each item's share and stops as soon as the limit is passed.
        """
        budget = self.max_output
        pending = [value]
        while pending:
            item = pending.pop()
            if isinstance(item, str | bytes):
                budget -= len(item)
            elif isinstance(item, dict):
                budget -= 2 + 4 * len(item)
                if budget >= 0:
                    pending.extend(item.keys())
                    pending.extend(item.values())
            elif isinstance(item, list | tuple | set | frozenset):
                budget -= 2 + 2 * len(item)
                if budget >= 0:
                    pending.extend(item)
            elif isinstance(item, Namespace):
                pending.append(getattr(item, "_Namespace__attrs", {}))  # its text is that of its attributes
            else:
                budget -= 1
            if budget < 0:
                raise TemplateBudgetError(f"the template would write a value longer than {self.max_output} characters")

    def _check_arguments(self, name: str, target: Any, args: list[Any]) -> None:
        """Refuse a call that would allocate past the output limit, before it runs."""
        if name in _ATTRIBUTE_FILTERS:
            for arg in args:
                if isinstance(arg, str) and len(arg) > _MAX_ATTRIBUTE_TEXT:
                    raise TemplateBudgetError(f"{name}() takes an attribute name or value of at most "
                                              f"{_MAX_ATTRIBUTE_TEXT} characters")
                self._check_text(arg)
        if name == "tojson":
            indent = args[0] if args else None
            if isinstance(indent, str | int) and not isinstance(indent, bool) and \
                    (len(indent) if isinstance(indent, str) else indent) > _MAX_JSON_INDENT:
                raise TemplateBudgetError(f"tojson() indent over {_MAX_JSON_INDENT} is not allowed in a template")
        if name in _SIZE_ARGUMENTS:
            for arg in args:
                if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > self.max_output:
                    raise TemplateBudgetError(f"{name}() with {arg} is over the template's limit of {self.max_output}")
        elif name == "sum" and isinstance(target, list | tuple):
            start = next((arg for arg in args if isinstance(arg, _SIZED)), ())
            self._fits_length(name, len(start) + sum(len(item) for item in target if isinstance(item, _SIZED)))
        elif name == "translate" and isinstance(target, str | bytes) and args and \
                isinstance(args[0], dict | list | tuple):
            table = args[0].values() if isinstance(args[0], dict) else args[0]
            longest = max((len(value) for value in table if isinstance(value, _SIZED)), default=1)
            self._fits_length(name, len(target) * longest)
        elif name in _COPYING_FILTERS and isinstance(target, list | tuple):
            copied = sum(len(item) for item in target if isinstance(item, str | bytes))
            if copied > self.max_output * _COPY_FACTOR:
                raise TemplateBudgetError(f"{name}() would copy {copied} characters, over the template's limit of "
                                          f"{self.max_output * _COPY_FACTOR}")
        elif name == "index" and isinstance(target, list) and args:
            self._check_text(args[0])  # a miss raises "<repr of the value> is not in list"
        elif name == "replace" and isinstance(target, str) and len(args) >= 2:
            old, new = str(args[0]), str(args[1])
            made = len(target) + (target.count(old) if old else len(target) + 1) * (len(new) - len(old))
            self._fits_length(name, made)

    def _check_join(self, items: Any, separator: Any) -> None:
        """A join of ``items`` (a string joins its characters) with ``separator``, measured before it is made."""
        self._check_text(separator)
        if isinstance(items, str | bytes):
            count, total = len(items), len(items)
        elif isinstance(items, list | tuple):
            for item in items:
                self._check_text(item)
            count, total = len(items), sum(len(item) if isinstance(item, str | bytes) else len(str(item))
                                           for item in items)
        else:
            return
        self._fits_length("join", total + len(str(separator)) * max(count - 1, 0))

    def _check_printf(self, template: Any, values: Any) -> None:
        """A ``%`` format: every width and precision, written or taken from ``*``, within the output limit."""
        if not isinstance(template, str | bytes):
            return
        text = template.decode("latin-1") if isinstance(template, bytes) else template
        specs = [size for match in _PRINTF_SPEC.finditer(text) for size in match.groups() if size]
        self._check_sizes("%", specs, values)

    def _check_str_format(self, template: str, args: list[Any]) -> None:
        """A ``str.format``: each number in a field's spec, and nested fields from the arguments, within the limit."""
        specs = []
        for _, _, spec, _ in string.Formatter().parse(template):
            specs.extend(re.findall(r"\d+|\{", spec or ""))
        self._check_sizes("format", [s if s != "{" else "*" for s in specs], args)

    def _check_sizes(self, name: str, specs: list[str], values: Any) -> None:
        for spec in specs:
            if spec != "*" and (len(spec) > 18 or int(spec) > self.max_output):
                raise TemplateBudgetError(f"{name} with a width of {spec} is over the template's limit of "
                                          f"{self.max_output}")
        if "*" in specs:
            pool = values.values() if isinstance(values, dict) else values if isinstance(values, list | tuple) \
                else [values]
            for value in pool:
                inner = value.values() if isinstance(value, dict) else [value]
                if any(isinstance(v, int) and not isinstance(v, bool) and abs(v) > self.max_output for v in inner):
                    raise TemplateBudgetError(f"{name} with a width from its arguments over the template's limit of "
                                              f"{self.max_output}")

    def _fits_length(self, name: str, made: int) -> None:
        if made > self.max_output:
            raise TemplateBudgetError(f"{name}() would make {made} characters, over the limit of {self.max_output}")

    def budget_iter(self, iterable: Any) -> Iterator[Any]:
        """``iterable``, one step per item."""
        for item in iterable:
            self.step()
            yield item

    def budget_range(self, *args: int) -> range:
        """``range``, refused when it has more items than the step budget."""
        self.step()
        numbers = range(*args)
        if len(numbers) > self.max_steps:
            raise TemplateBudgetError(f"range() of {len(numbers)} items is over the template's budget of "
                                      f"{self.max_steps} steps")
        return numbers

    def budget_lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002
        """``lipsum``, refused when its paragraphs could pass the output limit (a word is at most 12 characters)."""
        self.step()
        self._fits_length("lipsum", int(n) * max_words(min, max) * 13)
        return str(generate_lorem_ipsum(n=n, html=html, min=min, max=max))

    def budget_write(self, value: Any) -> Any:
        """A piece of output, wherever it goes (the result, a ``set`` block, a macro's text), counted against
        ``WRITE_FACTOR`` times the output limit: buffers that are joined later cannot grow unseen."""
        if not isinstance(value, str):
            self._check_text(value)
        self.written += len(value) if isinstance(value, str) else len(str(value))
        if self.written > self.max_output * WRITE_FACTOR:
            raise TemplateBudgetError(f"the template wrote more than {self.max_output * WRITE_FACTOR} characters "
                                      "(its output, set blocks and macros together)")
        return value

    def budget_concat(self, *parts: Any) -> str:
        """``a ~ b``, refused before it is made when the result would pass the output limit."""
        self.step()
        for part in parts:
            self._check_text(part)
        texts = [str(part) for part in parts]
        if sum(len(t) for t in texts) > self.max_output:
            raise TemplateBudgetError(f"the template made a string longer than {self.max_output} characters")
        return "".join(texts)

    def _budgeted_filter(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        skip = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0  # context/environment first

        def budgeted(*args: Any, **kwargs: Any) -> Any:
            self.step()
            values = args[skip:]
            if values and name in ("join", "sum") and not isinstance(values[0], (*_SIZED, dict)):
                values = (list(values[0]), *values[1:])  # measured before joining; each item came through a step
                args = (*args[:skip], *values)
            if values:
                if name in _TEXT_FILTERS:
                    self._check_text(values[0])
                if name == "join":
                    self._check_join(values[0], values[1] if len(values) > 1 else kwargs.get("d", ""))
                self._check_arguments(name, values[0], [*values[1:], *kwargs.values()])
                if name == "format":
                    self._check_text([*values[1:], *kwargs.values()])
                    self._check_printf(values[0], kwargs or list(values[1:]))
            return self._fits(function(*args, **kwargs))

        return functools.update_wrapper(budgeted, function)  # keeps Jinja's pass_context/pass_environment marks

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Every call is a step; size arguments and the result are checked."""
        if getattr(__obj, "__self__", None) is self:  # the budget's own hooks count themselves
            kwargs.pop("_loop_vars", None)  # Jinja's bookkeeping, which Context.call drops for other callables
            kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        self.step()
        name = getattr(__obj, "__name__", "")
        target = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)  # str.format comes wrapped
        if name == "join" and isinstance(target, str | bytes) and args:
            if not isinstance(args[0], _SIZED):
                args = (list(args[0]), *args[1:])
            self._check_join(args[0], target)
        self._check_arguments(name, target, [*args, *kwargs.values()])
        if name in ("format", "format_map") and isinstance(target, str):
            self._check_text([*args, *kwargs.values()])
            self._check_str_format(target, [*args, *kwargs.values(), *(v for a in args if isinstance(a, dict)
                                                                       for v in a.values())])
        result = self._fits(super().call(__context, __obj, *args, **kwargs))
        if isinstance(target, _CONTAINERS) and len(target) > self.max_output:
            raise TemplateBudgetError(f"the template grew a {type(target).__name__} past {self.max_output} items")
        return result

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**`` and ``+``, refused before they make an oversized value."""
        self.step()
        if operator == "*":
            count, sized = (right, left) if isinstance(left, _SIZED) else (left, right)
            if isinstance(sized, _SIZED) and isinstance(count, int) and len(sized) * count > self.max_output:
                raise TemplateBudgetError(f"the template made a value longer than {self.max_output} items")
            if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > \
                    _MAX_INT_BITS:
                raise TemplateBudgetError(f"the template made an integer over {_MAX_INT_BITS} bits")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and \
                right * left.bit_length() > _MAX_INT_BITS:
            raise TemplateBudgetError(f"the template made an integer over {_MAX_INT_BITS} bits")
        if operator == "%" and isinstance(left, str | bytes):
            self._check_text(right)
            self._check_printf(left, right)
        if operator == "+" and isinstance(left, _SIZED) and isinstance(right, _SIZED) and \
                len(left) + len(right) > self.max_output:
            raise TemplateBudgetError(f"the template made a value longer than {self.max_output} items")
        return self._fits(super().call_binop(context, operator, left, right))

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Parse, then route every loop's iterable, every piece of output and every ``~`` through the budget."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.EnvironmentAttribute("budget_iter"), [loop.iter], [], None, None,
                                   lineno=loop.lineno)
        for output in tree.find_all(nodes.Output):
            output.nodes = [nodes.Call(nodes.EnvironmentAttribute("budget_write"), [part], [], None, None,
                                       lineno=part.lineno) for part in output.nodes]
        for concat in list(tree.find_all(nodes.Concat)):
            parts = concat.nodes
            concat.nodes = [nodes.Call(nodes.EnvironmentAttribute("budget_concat"), parts, [], None, None,
                                       lineno=concat.lineno)]
        return tree


def max_words(low: int, high: int) -> int:
    """The most words ``lipsum`` puts in a paragraph for its ``min`` and ``max``."""
    return max(int(low), int(high), 1)


def render_bounded(template: str, variables: dict[str, Any], *, max_steps: int, max_output: int,
                   timeout_seconds: float) -> str:
    """Render ``template`` within the budget.

    Raises:
        jinja2.TemplateError: a syntax error, a sandbox violation or :class:`TemplateBudgetError`.
    """
    environment = BudgetedSandbox(max_steps=max_steps, max_output=max_output, timeout_seconds=timeout_seconds)
    compiled = environment.from_string(template)
    environment.start()
    produced, size = [], 0
    for piece in compiled.generate(**variables):
        size += len(piece)
        if size > max_output:
            raise TemplateBudgetError(f"template output exceeds {max_output} characters")
        produced.append(piece)
        environment.step()
    return "".join(produced)
