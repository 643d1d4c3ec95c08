"""Any locator gives a region or a 404-class error, never a crash: the evidence route takes it from the URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragspine
from ragspine.errors import RagspineError
from ragspine.evidence.regions import parse_locator, render_region

SAMPLES = Path(ragspine.__file__).parent / "samples"
FILES = {".xlsx": SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx", ".pptx": SAMPLES / "acme" / "ACME_FY2024_Review.pptx",
         ".docx": SAMPLES / "acme" / "ACME_FY2024_MDA.docx", ".pdf": SAMPLES / "vela" / "Vela_FY2025_Chair_Letter.pdf",
         ".md": SAMPLES / "acme" / "ACME_Product_Policy.md"}
DATA = {suffix: path.read_bytes() for suffix, path in FILES.items()}
KEYS = ["sheet", "cell", "slide", "table", "row", "col", "heading", "para", "page"]
VALUES = st.one_of(st.sampled_from(["2024", "D2", "A0", "!!", "ZZZZ1", "XFD1048577", "A99999999", "0", "1", "2",
                                    "99", "x", "", "REVENUE", "FY2024", "Returns", "香港（ACME_HK）"]),
                   st.text(max_size=12))
LOCATORS = st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=4).map(
    lambda pairs: ",".join(f"{k}={v}" for k, v in pairs))


@pytest.mark.parametrize("suffix", sorted(DATA))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(locator=LOCATORS, find=st.one_of(st.none(), st.text(max_size=20)))
def test_any_locator_renders_or_says_what_is_wrong(suffix: str, locator: str, find: str | None) -> None:
    try:
        region = render_region(DATA[suffix], suffix, locator, find=find)
    except RagspineError as exc:
        assert exc.http_status in (400, 404) and exc.message
        return
    assert region.format in ("table", "text", "image")


@pytest.mark.parametrize("cell", ["A0", "!!", "ZZZZZZ1", "XFD1048577", "A99999999999"])
def test_a_cell_outside_the_grid_is_404_not_a_crash(cell: str) -> None:
    with pytest.raises(RagspineError) as raised:
        render_region(DATA[".xlsx"], ".xlsx", f"sheet=2024,cell={cell}")
    assert raised.value.http_status == 404


def test_locator_values_may_hold_commas_and_brackets() -> None:
    assert parse_locator("heading=Clinics division (VELA_CLINICS), north,para=2") == {
        "heading": "Clinics division (VELA_CLINICS), north", "para": "2"}


def test_the_date_an_undated_cell_carries_is_no_part_of_its_column() -> None:
    assert parse_locator("table=1,row=Deferred revenue,col=As reported,date=2019-09-30") == {
        "table": "1", "row": "Deferred revenue", "col": "As reported", "date": "2019-09-30"}
