"""Jinja2 rendering with a budget: steps, a deadline, the size of every value made, and the output size.

The sandbox stops attribute tricks, not work. Here every loop iteration (each ``for`` is
rewritten to iterate through :meth:`BudgetedSandbox.budget_iter`), every call and every filter
is a step; the deadline is checked at each step; ``*``, ``**``, ``+`` and ``~`` refuse results
over the output limit before making them, and an integer argument over that limit is refused
(``'x'|center(10**9)``); ``range`` is capped at the step budget; every piece written, to the
output or to a ``set`` block or macro buffer, is counted as it is produced. One step can still
do bounded work (at most one value of ``max_output`` size).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

_SIZED = (str, bytes, list, tuple)
_MAX_INT_BITS = 4096
# Everything a render writes (its output, ``set`` blocks, macro bodies) may total this many times the output limit.
WRITE_FACTOR = 4
# Filters and str methods whose integer argument is a size to allocate (a width, a count).
_SIZE_ARGUMENTS = frozenset({"center", "indent", "wordwrap", "truncate", "ljust", "rjust", "zfill", "expandtabs",
                             "batch", "slice"})


class TemplateBudgetError(SecurityError):
    """The template went over its step, time or size budget."""


class BudgetedSandbox(SandboxedEnvironment):
    """A sandboxed environment whose renders are bounded; make one per render (it holds the spent budget)."""

    intercepted_binops = frozenset({"*", "**", "+"})

    def __init__(self, *, max_steps: int, max_output: int, timeout_seconds: float) -> None:
        super().__init__(autoescape=False, keep_trailing_newline=True)
        self.max_steps, self.max_output, self.timeout_seconds = max_steps, max_output, timeout_seconds
        self.steps = 0
        self.written = 0
        self.deadline = math.inf
        self.globals["range"] = self.budget_range
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

    def _check_arguments(self, name: str, target: Any, args: list[Any]) -> None:
        """Refuse a call that would allocate past the output limit, before it runs."""
        if name in _SIZE_ARGUMENTS:
            for arg in args:
                if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > self.max_output:
                    raise TemplateBudgetError(f"{name}() with {arg} is over the template's limit of {self.max_output}")
        elif name == "join" and isinstance(target, list | tuple):
            separator = len(str(args[0])) if args else 0
            made = sum(len(str(item)) for item in target) + separator * max(len(target) - 1, 0)
            self._fits_length(name, made)
        elif name == "replace" and isinstance(target, str) and len(args) >= 2:
            old, new = str(args[0]), str(args[1])
            made = len(target) + (target.count(old) if old else len(target) + 1) * (len(new) - len(old))
            self._fits_length(name, made)

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

    def budget_write(self, value: Any) -> Any:
        """A piece of output, wherever it goes (the result, a ``set`` block, a macro's text), counted against
        ``WRITE_FACTOR`` times the output limit: buffers that are joined later cannot grow unseen."""
        self.written += len(value) if isinstance(value, str) else len(str(value))
        if self.written > self.max_output * WRITE_FACTOR:
            raise TemplateBudgetError(f"the template wrote more than {self.max_output * WRITE_FACTOR} characters "
                                      "(its output, set blocks and macros together)")
        return value

    def budget_concat(self, *parts: Any) -> str:
        """``a ~ b``, refused before it is made when the result would pass the output limit."""
        self.step()
        texts = [str(part) for part in parts]
        if sum(len(t) for t in texts) > self.max_output:
            raise TemplateBudgetError(f"the template made a string longer than {self.max_output} characters")
        return "".join(texts)

    def _budgeted_filter(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        skip = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0  # context/environment first

        def budgeted(*args: Any, **kwargs: Any) -> Any:
            self.step()
            values = args[skip:]
            if values:
                self._check_arguments(name, values[0], [*values[1:], *kwargs.values()])
            return self._fits(function(*args, **kwargs))

        return functools.update_wrapper(budgeted, function)  # keeps Jinja's pass_context/pass_environment marks

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Every call is a step; size arguments and the result are checked."""
        if getattr(__obj, "__self__", None) is self:  # the budget's own hooks count themselves
            kwargs.pop("_loop_vars", None)  # Jinja's bookkeeping, which Context.call drops for other callables
            kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        self.step()
        self._check_arguments(getattr(__obj, "__name__", ""), getattr(__obj, "__self__", None),
                              [*args, *kwargs.values()])
        return self._fits(super().call(__context, __obj, *args, **kwargs))

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
