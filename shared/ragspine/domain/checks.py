"""A domain file read against its schema and the engine's own rules, every problem with its line.

This is what ``ragspine domain check`` runs on each file, and what a function runs when it reads a
file that no seal vouches for (``domain/seal.py``). It loads the pydantic schemas of every file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ValidationError

from ragspine.domain import schemas
from ragspine.domain.file_names import DOMAIN, FAQ, GLOSSARY, INTENT, LIBRARIES, SCREENING
from ragspine.domain.marks import MarkedYaml, Problem, field_path, read_marked
from ragspine.domain.packs import included_packs, merge_pack, pack_path, shipped_packs
from ragspine.facts.formulas import formula_problems

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

SCHEMAS: dict[str, type[BaseModel]] = {
    DOMAIN: schemas.DomainFile, GLOSSARY: schemas.GlossaryFile, SCREENING: schemas.ScreeningFile,
    INTENT: schemas.IntentFile, LIBRARIES: schemas.LibrariesFile, FAQ: schemas.FaqFile,
}


@dataclass(frozen=True)
class CheckedFile:
    """A file read against its schema: the validated mapping (None when invalid) and the problems."""

    name: str
    data: dict[str, Any] | None
    problems: tuple[Problem, ...]
    marked: MarkedYaml | None = None

    def problem(self, loc: tuple[str | int, ...], message: str) -> Problem:
        """A problem at ``loc`` of this file, with its line."""
        line = self.marked.line_of(loc) if self.marked else None
        return Problem(self.name, line, field_path(loc), message)


def check_file(folder: Path, name: str, *, kind: str | None = None) -> CheckedFile:
    """Read ``folder/name`` and validate it against the schema of ``kind`` (default: the file name).

    Every problem names the file, the line and the field.
    """
    path = folder / name
    try:
        marked = read_marked(path)
    except FileNotFoundError:
        return CheckedFile(name, None, (Problem(name, None, "", f"missing: create {path}"),))
    except OSError as exc:
        return CheckedFile(name, None, (Problem(name, None, "", f"cannot read: {exc.strerror or exc}"),))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        return CheckedFile(name, None, (Problem(name, line, "", f"not valid YAML: {getattr(exc, 'problem', exc)}"),))
    if not isinstance(marked.data, dict):
        return CheckedFile(name, None, (Problem(name, 1, "", "must be a mapping of fields (key: value)"),), marked)
    if (kind or name) == GLOSSARY:
        merged, pack_problems = _with_packs(folder, marked.data)
        if pack_problems:
            return CheckedFile(name, None, pack_problems, marked)
        marked = MarkedYaml(merged, marked.node)
    try:
        model = SCHEMAS[kind or name].model_validate(marked.data)
    except ValidationError as exc:
        problems = tuple(Problem(name, marked.line_of(err["loc"]), field_path(err["loc"]), _message(err))
                         for err in exc.errors())
        return CheckedFile(name, None, problems, marked)
    # The engine builds its types from the mapping as written; the schema has vouched for it.
    checked = CheckedFile(name, marked.data, (), marked)
    extra = tuple(SEMANTIC.get(kind or name, _nothing)(model, checked))
    return CheckedFile(name, None, extra, marked) if extra else checked


def _with_packs(folder: Path, glossary: dict[str, Any]) -> tuple[dict[str, Any], tuple[Problem, ...]]:
    """The glossary with the packs ``domain.yaml`` includes merged in, or the problems of those packs."""
    problems: list[Problem] = []
    for pack in included_packs(folder):
        path = pack_path(pack)
        if path is None:
            continue  # domain.yaml's own check names the unknown pack, with its line

        data = read_marked(path).data
        try:
            schemas.PackFile.model_validate(data)
        except ValidationError as exc:
            problems += [Problem(f"pack {pack}", None, field_path(e["loc"]), _message(e)) for e in exc.errors()]
            continue
        glossary = merge_pack(glossary, data)
    return glossary, tuple(problems)


def _message(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown field (misspelt, or not a field of this file)"
    if err["type"] == "missing":
        return "required field is missing"
    return str(err["msg"])


def _nothing(model: BaseModel, checked: CheckedFile) -> Iterable[Problem]:
    return ()


def _glossary_problems(model: BaseModel, checked: CheckedFile) -> Iterable[Problem]:
    """Cross-references inside the glossary: home entity, default channel, hierarchy, levels, units."""
    assert isinstance(model, schemas.GlossaryFile)
    if model.home_entity not in model.entities:
        yield checked.problem(("home_entity",), f"{model.home_entity} is not one of the entities")
    elif model.entities[model.home_entity].parent is not None:
        yield checked.problem(("entities", model.home_entity, "parent"), "the home entity is the top of the hierarchy")
    if model.default_channel not in model.channels:
        yield checked.problem(("default_channel",), f"{model.default_channel} is not one of the channels")
    for code, entity in model.entities.items():
        if entity.parent is not None and entity.parent not in model.entities:
            yield checked.problem(("entities", code, "parent"), f"{entity.parent} is not one of the entities")
        if entity.level is not None and model.levels and entity.level not in model.levels:
            yield checked.problem(("entities", code, "level"), f"{entity.level} is not one of the levels")
        if _has_cycle(code, model.entities):
            yield checked.problem(("entities", code, "parent"), "the parents of this entity form a cycle")
    for code, metric in model.metrics.items():
        if model.units and metric.unit not in model.units:
            yield checked.problem(("metrics", code, "unit"), f"{metric.unit} is not one of the units")
    yield from _formula_problems(model, checked)


def _formula_problems(model: schemas.GlossaryFile, checked: CheckedFile) -> Iterable[Problem]:
    """Formula metrics: readable, over known metrics, without cycles, in units that agree."""
    specs = {code: metric.model_dump() for code, metric in model.metrics.items()}
    currencies = {code: unit.currency for code, unit in model.units.items()}
    for code, message in formula_problems(specs, currencies):
        yield checked.problem(("metrics", code, "formula"), message)


def _has_cycle(code: str, entities: dict[str, schemas.EntitySpec]) -> bool:
    seen = {code}
    parent = entities[code].parent
    while parent is not None and parent in entities:
        if parent in seen:
            return True
        seen.add(parent)
        parent = entities[parent].parent
    return False


def _faq_problems(model: BaseModel, checked: CheckedFile) -> Iterable[Problem]:
    assert isinstance(model, schemas.FaqFile)
    seen: set[str] = set()
    for index, entry in enumerate(model.entries):
        if entry.id in seen:
            yield checked.problem(("entries", index, "id"), f"{entry.id} is used by an earlier entry")
        seen.add(entry.id)


def _domain_problems(model: BaseModel, checked: CheckedFile) -> Iterable[Problem]:
    assert isinstance(model, schemas.DomainFile)
    if model.system_prompt is not None and not model.system_prompt.strip():
        yield checked.problem(("system_prompt",), "empty: remove it to use the engine's wording")
    for index, pack in enumerate(model.include):
        if pack_path(pack) is None:
            yield checked.problem(("include", index), f"no pack named {pack!r}: the shipped packs are "
                                                      f"{', '.join(shipped_packs()) or 'none'}")


SEMANTIC: dict[str, Callable[[BaseModel, CheckedFile], Iterable[Problem]]] = {
    GLOSSARY: _glossary_problems, FAQ: _faq_problems, DOMAIN: _domain_problems,
}
