"""A record built without ``__init__`` is the one ``__init__`` builds: equal, hashed alike, its fields the same."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import Period
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.frozen_records import record_builder
from ragspine.qa.intent_model import Channel, Intent
from ragspine.qa.result import AnswerResult, AnswerStatus, Route
from ragspine.qa.slots import ParsedSlots, Slots
from ragspine.sensitivity import Sensitivity

_TEXT = st.text(max_size=12)
_CODES = st.lists(_TEXT, max_size=3).map(tuple)
_PERIODS = st.lists(st.builds(Period, st.sampled_from(["FY", "Q"]), _TEXT), max_size=2).map(tuple)


def _same_record(built: object, made: object) -> None:
    assert type(built) is type(made)
    assert built == made
    assert repr(built) == repr(made)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    names = [item.name for item in fields]
    for item in fields:  # the arguments and defaults themselves; a factory's or __post_init__'s value made afresh
        made_afresh = item.default_factory is not dataclasses.MISSING or not item.init
        same = getattr(built, item.name) == getattr(made, item.name) if made_afresh \
            else getattr(built, item.name) is getattr(made, item.name)
        assert same, item.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, names[0], "changed")


@given(row=st.tuples(_TEXT, _TEXT, _TEXT, _TEXT, _TEXT, _TEXT, st.integers() | st.floats(allow_nan=False), _TEXT,
                     _TEXT, _TEXT, st.none() | _TEXT, st.none() | _TEXT, st.none() | _TEXT,
                     st.sampled_from(list(Sensitivity))))
def test_a_fact_built_so_is_the_fact_init_builds(row: tuple[object, ...]) -> None:
    made, built = Fact(*row), record_builder(Fact)(*row)  # type: ignore[arg-type]
    _same_record(built, made)
    assert hash(built) == hash(made)
    assert built.key == made.key


@given(metrics=_CODES, entities=_CODES, periods=_PERIODS, channels=_CODES, bad_period=st.none() | _TEXT,
       unknown=_CODES, half=st.booleans())
def test_defaults_are_filled_in_as_init_fills_them(metrics: tuple[str, ...], entities: tuple[str, ...],
                                                    periods: tuple[Period, ...], channels: tuple[str, ...],
                                                    bad_period: str | None, unknown: tuple[str, ...],
                                                    half: bool) -> None:
    build = record_builder(ParsedSlots)
    _same_record(build(metrics, entities, periods, channels), ParsedSlots(metrics, entities, periods, channels))
    _same_record(build(metrics, entities, periods, channels, bad_period, unknown_names=unknown, half_year_sum=half),
                 ParsedSlots(metrics, entities, periods, channels, bad_period, unknown_names=unknown,
                             half_year_sum=half))
    slots = ParsedSlots(metrics, entities, periods, channels)
    _same_record(record_builder(Intent)(slots, Channel.STRUCTURED, quantity=half),
                 Intent(slots, Channel.STRUCTURED, quantity=half))


def test_a_default_factory_gives_each_record_its_own_value() -> None:
    build = record_builder(AnswerResult)
    slots = Slots((), (), (), ())
    first, second = build("a", (), Route.STRUCTURED, AnswerStatus.FOUND, slots), \
        build("a", (), Route.STRUCTURED, AnswerStatus.FOUND, slots)
    _same_record(first, AnswerResult("a", (), Route.STRUCTURED, AnswerStatus.FOUND, slots))
    assert first.trace == {} and first.trace is not second.trace
    found = record_builder(QueryResult)(QueryStatus.FOUND)
    assert found == QueryResult(QueryStatus.FOUND) and found.conflicts == ()


def test_post_init_runs_after_the_fields_as_init_runs_it() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int
        double: int = field(init=False)
        seen: tuple[int, ...] = field(init=False, default=())

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError(self.value)
            object.__setattr__(self, "double", 2 * self.value)

    build = record_builder(Checked)
    _same_record(build(3), Checked(3))
    assert build(3).double == 6 and build(3).seen == ()
    with pytest.raises(ValueError, match="-1"):
        build(-1)


@given(metric=_TEXT, entity=_TEXT, period=st.builds(Period, st.sampled_from(["FY", "Q"]), _TEXT), channel=_TEXT)
def test_a_query_built_so_is_the_query_init_builds_with_its_key(metric: str, entity: str, period: Period,
                                                                 channel: str) -> None:
    made, built = MetricQuery(metric, entity, period, channel), record_builder(MetricQuery)(metric, entity, period,
                                                                                            channel)
    _same_record(built, made)
    assert built.key == made.key == FactKey(metric, entity, channel, period.period_type, period.period)
    assert type(built.key) is FactKey and hash(built) == hash(made)


def test_a_record_whose_init_takes_more_than_its_fields_or_that_derives_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Scaled:
        value: int
        scale: InitVar[int] = 1

        def __post_init__(self, scale: int) -> None:
            object.__setattr__(self, "value", self.value * scale)

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Named:
        value: int

    @dataclass(frozen=True)
    class Unslotted:
        value: int

    @dataclass(frozen=True, slots=True)
    class Base:
        value: int

    @dataclass(frozen=True, slots=True)
    class Derived(Base):  # the draft would take the base's frozen __setattr__
        other: int

    for cls in (Scaled, Named, Unslotted, Derived):
        with pytest.raises(TypeError):
            record_builder(cls)
