"""The regex programs a first ask compiles, kept from a build, so a cold start loads them instead of compiling.

``re`` turns a pattern's text into a program for its matching engine in Python (``re._parser`` and
``re._compiler``), and keeps the result in a cache keyed by the text and the flags. The ask function's
import and first request compile some fifty patterns of the engine's (the glossary's prefix trees, the
period and unit readers, the screening's cues): tens of milliseconds of CPU per cold start, each time
the same programs. ``tools/regex_programs.py`` writes those programs once, per interpreter
(``config/regex_programs/<cache tag>-<compiler>.json``: CPython 3.11's, 3.12's and 3.13's programs
differ, and a patch release's may), the way ``.pyc`` files keep compiled modules; ``warm_regex_cache``
builds each pattern from its program (``_sre.compile``, the call ``re._compiler.compile`` ends with; the
engine checks the program as it always does) and puts it in ``re``'s cache, where every later
``re.compile`` or ``re.search`` of the same text and flags finds it.

A program is used only by an interpreter like the one that wrote it: the file is named by its cache tag
and the SHA-256 of the source of ``re``'s parser, compiler and constants (between 3.12.1 and 3.12.10 the
compiling of a character class under IGNORECASE was fixed, for one), and holds the engine's version
(``_sre.MAGIC``); any other interpreter compiles as before. A pattern the file does not hold is compiled
as before too, so a stale file costs time, never an answer.
``tests/unit/core/test_regex_programs.py`` checks that every kept program is the one ``re`` compiles, and
the ask function's cold-start test that a first ask finds each engine pattern it reads in the file.

Run as a script with any interpreter and nothing installed (``python -I -P regex_programs.py``: ``-P`` keeps
this folder, whose ``numbers`` package is not the standard library's, off ``sys.path``), it reads
``[[pattern, flags], ...]`` as JSON on stdin and writes that interpreter's programs as JSON on stdout.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's engine: the call re._compiler.compile ends with
import base64
import hashlib
import importlib
import json
import re
import sys
from array import array
from pathlib import Path
from typing import Any

PROGRAMS_DIR = Path(__file__).resolve().parent / "config" / "regex_programs"
# A program's words are _sre.CODESIZE bytes; kept little-endian in the file.
_WORD: str = next(code for code in "IL" if array(code).itemsize == _sre.CODESIZE)


def programs_name(cache_tag: str, compiler: str) -> str:
    """The name of the file of programs an interpreter of ``cache_tag`` with ``re``'s compiler ``compiler`` writes."""
    return f"{cache_tag}-{compiler[:16]}.json"


def programs_file(folder: Path = PROGRAMS_DIR) -> Path | None:
    """This interpreter's file of programs in ``folder`` (None without a cache tag or with ``re``'s source unread)."""
    tag, compiler = sys.implementation.cache_tag, compiler_fingerprint()
    return folder / programs_name(tag, compiler) if tag and compiler else None


def compiler_fingerprint() -> str | None:
    """The SHA-256 of the source of ``re``'s parser, compiler and constants: what a program is computed by.
    None when a module's source cannot be read (nothing is then used)."""
    digest = hashlib.sha256()
    for name in ("re._parser", "re._compiler", "re._constants"):
        source = getattr(sys.modules.get(name) or importlib.import_module(name), "__file__", None)
        try:
            digest.update(Path(str(source)).read_bytes())
        except OSError:
            return None
    return digest.hexdigest()


def program_entry(pattern: str, flags: int) -> dict[str, Any]:
    """What ``_sre.compile`` is given for ``pattern`` with ``flags``, as ``re._compiler.compile`` computes it."""
    parsed = importlib.import_module("re._parser").parse(pattern, flags)
    words = array(_WORD, (int(word) for word in importlib.import_module("re._compiler")._code(parsed, flags)))
    if sys.byteorder != "little":
        words.byteswap()
    return {"pattern": pattern, "flags": int(flags), "compiled_flags": int(flags | parsed.state.flags),
            "groups": parsed.state.groups - 1, "groupindex": dict(parsed.state.groupdict),
            "program": base64.b64encode(words.tobytes()).decode("ascii")}


def programs_document(patterns: list[tuple[str, int]]) -> dict[str, Any]:
    """This interpreter's programs of ``patterns`` (each text and flags once, in their order)."""
    unique = list(dict.fromkeys((pattern, int(flags)) for pattern, flags in patterns))
    return {"python": sys.implementation.cache_tag, "magic": _sre.MAGIC, "codesize": _sre.CODESIZE,
            "compiler": compiler_fingerprint(),
            "patterns": [program_entry(pattern, flags) for pattern, flags in unique]}


def compiled_from_entry(entry: dict[str, Any]) -> re.Pattern[str]:
    """The pattern ``entry`` keeps, built from its program without parsing the text."""
    words = array(_WORD)
    words.frombytes(base64.b64decode(entry["program"]))
    if sys.byteorder != "little":
        words.byteswap()
    groupindex: dict[str, int] = entry["groupindex"]
    indexgroup: list[str | None] = [None] * (entry["groups"] + 1)
    for name, index in groupindex.items():
        indexgroup[index] = name
    pattern: re.Pattern[str] = _sre.compile(entry["pattern"], entry["compiled_flags"], words.tolist(),
                                            entry["groups"], groupindex, tuple(indexgroup))
    return pattern


def read_programs(folder: Path = PROGRAMS_DIR) -> list[dict[str, Any]]:
    """The entries of this interpreter's file in ``folder``; none when it has no file, or when another engine
    or another text of ``re``'s compiler wrote it (a patch release may change what a pattern compiles to)."""
    path = programs_file(folder)
    if path is None or not path.is_file():
        return []
    document = json.loads(path.read_bytes())
    if (document.get("magic"), document.get("codesize")) != (_sre.MAGIC, _sre.CODESIZE):
        return []
    if document.get("compiler") is None or document.get("compiler") != compiler_fingerprint():
        return []
    entries: list[dict[str, Any]] = document["patterns"]
    return entries


def warm_regex_cache(folder: Path = PROGRAMS_DIR) -> int:
    """Put each pattern of this interpreter's file in ``re``'s cache; how many were put.

    ``re`` keys its cache by ``(str, text, flags)`` in CPython 3.11 to 3.13 (3.12 adds a second level that a
    hit in this one fills); an interpreter whose ``re`` keeps none gets nothing, and compiles as before."""
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return 0
    put = 0
    for entry in read_programs(folder):
        key = (str, entry["pattern"], entry["flags"])
        if key not in cache:
            cache[key] = compiled_from_entry(entry)
            put += 1
    return put


if __name__ == "__main__":
    json.dump(programs_document([(pattern, flags) for pattern, flags in json.load(sys.stdin)]), sys.stdout)
