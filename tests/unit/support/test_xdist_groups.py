"""How ``make test`` splits the suite between its workers: whole files, shared-session folders, long units first."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.support.xdist_groups import long_units_first, unit_of_work


@dataclass
class _Item:
    nodeid: str
    markers: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


@pytest.mark.parametrize(("nodeid", "unit"), [
    ("tests/unit/qa/test_cues.py::test_a[x]", "tests/unit/qa/test_cues.py"),
    ("tests/unit/qa/test_cues.py::TestKind::test_b", "tests/unit/qa/test_cues.py"),
    ("tests/browser/test_ask_page.py::test_c", "tests/browser/"),
    ("tests/e2e/test_local_service.py::TestStartUp::test_d", "tests/e2e/"),
])
def test_a_unit_of_work_is_a_file_or_a_folder_sharing_a_session_service(nodeid: str, unit: str) -> None:
    assert unit_of_work(nodeid) == unit


def test_units_holding_a_slow_test_and_the_shared_folders_go_first_the_rest_keep_their_order() -> None:
    items = [_Item("tests/artifact/test_a.py::t1"), _Item("tests/contract/test_s.py::t1"),
             _Item("tests/contract/test_s.py::t2", {"slow"}), _Item("tests/e2e/test_e.py::t1"),
             _Item("tests/unit/test_u.py::t1"), _Item("tests/unit/test_u.py::t2")]
    long_units_first(items)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [
        "tests/contract/test_s.py::t1", "tests/contract/test_s.py::t2", "tests/e2e/test_e.py::t1",
        "tests/artifact/test_a.py::t1", "tests/unit/test_u.py::t1", "tests/unit/test_u.py::t2"]
