"""What a domain glossary adds to the slots: the entity hierarchy, levels, units, currency, calendar."""

from __future__ import annotations

from ragspine.domain.files import shipped_domains_dir
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Glossary, SlotKind
from tests.support.glossary import default_glossary


def _vela() -> Glossary:
    return read_glossary(shipped_domains_dir() / "vela" / "glossary.yaml")


def test_the_hierarchy_has_three_levels() -> None:
    vela = _vela()
    assert vela.children("VELA_GROUP") == ["VELA_HOSPITALS", "VELA_CLINICS", "VELA_DIAGNOSTICS"]
    assert vela.children("VELA_HOSPITALS") == ["VELA_AMSTERDAM", "VELA_ROTTERDAM"]
    assert vela.ancestors("VELA_ROTTERDAM") == ["VELA_HOSPITALS", "VELA_GROUP"]
    assert vela.entities_at("division") == vela.children("VELA_GROUP")
    assert vela.levels["division"].name("zh") == "业务板块"


def test_units_currency_additivity_and_the_calendar() -> None:
    vela = _vela()
    assert (vela.currency, vela.units["EUR_M"].name("en")) == ("EUR", "EUR millions")
    assert vela.term(SlotKind.METRIC, "REVENUE").additive and not vela.term(SlotKind.METRIC, "EBITDA_MARGIN").additive
    assert vela.fiscal_calendar == FiscalCalendar(6, "end")
    assert default_glossary().fiscal_calendar == FiscalCalendar()


def test_the_engine_period_spellings_apply_when_a_domain_gives_none() -> None:
    vela = _vela()  # its glossary.yaml has no `periods`
    assert [m.code for m in vela.scan("2025年第二季度 and FY2024 and Q3 2025") if m.kind is SlotKind.PERIOD] == [
        "2025Q2", "FY2024", "2025Q3"]


def test_the_company_name_is_a_filler_not_an_entity() -> None:
    # "Vela Health's revenue" is the group's: the name must not add an entity beside a division.
    vela = _vela()
    entities = [m.code for m in vela.scan("Vela Health's hospitals revenue") if m.kind is SlotKind.ENTITY]
    assert entities == ["VELA_HOSPITALS"]
