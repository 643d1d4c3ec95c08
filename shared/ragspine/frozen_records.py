"""A frozen dataclass built without its generated ``__init__``, where one is built on every ask.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (its own
``__setattr__`` refuses), a global and an attribute look-up and a call per field, defaulted
fields included: the 15 fields of a question's parsed slots cost that much even when four are
given. The question path builds a few such records per ask (the parsed slots, the intent, the
fact read from the store, its result, the answer), so those are built by a function taking
the same arguments as ``__init__`` (the same defaults and default factories), generated once per
class as ``dataclasses`` generates ``__init__``. It fills an instance of a mutable draft class with
the record's very slots (plain attribute stores, which the interpreter specialises for slots), then
gives it the record's class: ``__class__`` assignment, which Python allows between classes of the
same slots and layout, in one step where setting each slot through its descriptor is a call a field.

Only for a ``slots=True`` dataclass with no ``InitVar`` and no keyword-only field: every field is
then set as ``__init__`` sets it (its argument, its default or its factory's value; a field
``__init__`` does not take, its default or nothing) and ``__post_init__`` runs after them as it
does there, so the record is equal to, hashes as and reads as the one ``__init__`` builds
(``tests/unit/core/test_frozen_records.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def record_builder(cls: type[T]) -> Callable[..., T]:
    """A function building ``cls`` from ``__init__``'s arguments, with no ``__init__`` run.

    Raises:
        TypeError: ``cls`` is not a slotted dataclass, derives from another class, or its ``__init__`` takes an
            ``InitVar`` or a keyword-only argument.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__):
        raise TypeError(f"{cls.__name__} has an InitVar or a ClassVar: its __init__ takes more than its fields")
    if any(field.kw_only is True or field.name.startswith("_") for field in fields):
        # the generated function's own names all begin with "_"
        raise TypeError(f"{cls.__name__} has a keyword-only field, or one named with a leading _")
    draft = _draft_of(cls)
    scope: dict[str, Any] = {"_new": object.__new__, "_draft": draft, "_cls": cls, "_MISSING": dataclasses.MISSING}
    params, body = [], []
    for field in fields:
        name = field.name
        if not field.init:  # set by __init__ only from its default or factory; else left to __post_init__
            if field.default is not dataclasses.MISSING:
                scope[f"_default_{name}"] = field.default
                body.append(f"    _record.{name} = _default_{name}\n")
            elif field.default_factory is not dataclasses.MISSING:
                scope[f"_factory_{name}"] = field.default_factory
                body.append(f"    _record.{name} = _factory_{name}()\n")
            continue
        if field.default is not dataclasses.MISSING:
            scope[f"_default_{name}"] = field.default
            params.append(f"{name}=_default_{name}")
        elif field.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{name}"] = field.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"    if {name} is _MISSING:\n        {name} = _factory_{name}()\n")
        else:
            params.append(name)
        body.append(f"    _record.{name} = {name}\n")
    body.append("    _record.__class__ = _cls\n")
    if hasattr(cls, "__post_init__"):
        body.append("    _record.__post_init__()\n")
    source = f"def build({', '.join(params)}):\n    _record = _new(_draft)\n{''.join(body)}    return _record\n"
    exec(source, scope)  # noqa: S102 (generated from the class's own fields, as dataclasses generates __init__)
    build: Callable[..., T] = scope["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    return build


def _draft_of(cls: type[T]) -> type:
    """A mutable class of ``cls``'s bases and slots, whose instances may be given ``cls`` as their class.

    Raises:
        TypeError: ``cls`` derives from another class (whose ``__setattr__`` or slots the draft would take), or an
            instance of the draft cannot become a ``cls``.
    """
    if cls.__bases__ != (object,):
        raise TypeError(f"{cls.__name__} derives from {cls.__bases__}: only a record of its own slots is built so")
    draft = type(f"{cls.__name__}Draft", (), {"__slots__": cls.__dict__["__slots__"]})
    trial: Any = object.__new__(draft)
    trial.__class__ = cls  # refused here, once, rather than on the first record built
    return draft
