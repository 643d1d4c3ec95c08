"""The benchmark fact base: a SQLite fact store grown with synthetic facts plus the ACME sample.

Building a million facts takes a while, so the finished file is cached beside a small
``.meta.json`` that says what it holds; a cache whose meta is missing or different is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

from tests.support.glossary import default_glossary
from tests.support.samples import load_sample_facts

from ragspine.facts.glossary import SlotKind
from ragspine.facts.model import Fact
from ragspine.facts.sqlite_store import SqliteFactStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

CHUNK = 50_000
# The same period shape as the ACME sample: three fiscal years and eight quarters.
PERIODS: tuple[tuple[str, str], ...] = (
    *(("FY", str(year)) for year in (2023, 2024, 2025)),
    *(("Q", f"{year}Q{q}") for year in (2024, 2025) for q in (1, 2, 3, 4)),
)
GEOGRAPHIES = ("CN", "HK", "JP", "SG", "TW", "KR", "MY", "TH", "US", "GB")


@dataclass(frozen=True, slots=True)
class FactBase:
    """A ready fact file and what it holds."""

    path: Path
    synthetic: int
    sample: int
    build_seconds: float | None  # None when the cached file was reused

    @property
    def total(self) -> int:
        """Synthetic plus sample facts."""
        return self.synthetic + self.sample


def synthetic_facts(count: int) -> Iterator[Fact]:
    """``count`` facts for entities ``SYN_000000``… that no glossary alias names.

    Every entity gets every metric x channel x period of the sample's shape, so the primary
    key and the ``source_doc_id`` index grow the way a real multi-entity table would.
    """
    glossary = default_glossary()
    metrics = [(term.code, term.unit or "USD_M") for term in glossary.terms[SlotKind.METRIC].values()]
    channels = list(glossary.terms[SlotKind.CHANNEL])
    produced = 0
    entity_no = 0
    while produced < count:
        entity = f"SYN_{entity_no:06d}"
        geography = GEOGRAPHIES[entity_no % len(GEOGRAPHIES)]
        doc = f"SYN_{entity_no // 10:05d}_Report.xlsx"
        file_hash = "sha256:" + hashlib.sha256(doc.encode()).hexdigest()
        for m, (metric, unit) in enumerate(metrics):
            for c, channel in enumerate(channels):
                for p, (period_type, period) in enumerate(PERIODS):
                    if produced == count:
                        return
                    seed = entity_no * 7919 + m * 104_729 + c * 1_299_709 + p * 15_485_863
                    value: float = round(10 + seed % 6000 / 100, 1) if unit == "PCT" else 1 + seed % 9973
                    yield Fact(metric, entity, geography, channel, period_type, period, value, unit, doc,
                               f"sheet={entity},row={metric},col={channel}:{period_type}{period}",
                               file_hash, "synthetic-1", glossary.version)
                    produced += 1
        entity_no += 1


def ensure_fact_base(path: Path, synthetic: int, *, rebuild: bool, log: Callable[[str], None]) -> FactBase:
    """Reuse the cached fact file when it matches, otherwise build it (into a side file, then rename)."""
    meta_path = path.with_name(path.name + ".meta.json")
    if not rebuild and path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("synthetic") == synthetic:
            log(f"reusing cached fact base {path} ({meta['synthetic'] + meta['sample']:,} facts, "
                f"built in {meta['build_seconds']:.1f}s)")
            return FactBase(path, meta["synthetic"], meta["sample"], None)
    return _build(path, meta_path, synthetic, log=log)


def _build(path: Path, meta_path: Path, synthetic: int, *, log: Callable[[str], None]) -> FactBase:
    partial = path.with_name(path.name + ".building")
    for stale in (path, partial, meta_path):
        for suffix in ("", "-wal", "-shm"):
            stale.with_name(stale.name + suffix).unlink(missing_ok=True)
    log(f"building fact base {path} with {synthetic:,} synthetic facts + the ACME sample")
    started = time.perf_counter()
    store = SqliteFactStore(partial)
    facts = synthetic_facts(synthetic)
    written = 0
    while chunk := list(islice(facts, CHUNK)):
        written += store.put_many(chunk)
        elapsed = time.perf_counter() - started
        log(f"  {written:>9,} / {synthetic:,} facts  {elapsed:6.1f}s  ({written / elapsed:,.0f} facts/s)")
    sample = load_sample_facts(store)
    total = store.count()
    store.close()  # the last connection to close checkpoints the WAL into the main file
    partial.rename(path)
    seconds = time.perf_counter() - started
    log(f"  + {sample} ACME sample facts; {total:,} facts in {seconds:.1f}s")
    meta = {"synthetic": synthetic, "sample": sample, "total": total, "build_seconds": round(seconds, 2)}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return FactBase(path, synthetic, sample, seconds)
