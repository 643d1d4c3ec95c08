"""Formula metrics: a safe reader (a whitelist over ``ast``), exact arithmetic, and the glossary's checks."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.formulas import FormulaError, formula_problems, parse_formula
from ragspine.facts.unit_scales import common_unit, money_unit, rescale


class TestReading:
    def test_inputs_are_the_metric_codes_in_order(self) -> None:
        formula = parse_formula("(CURRENT_ASSETS - INVENTORIES) / CURRENT_LIABILITIES")
        assert formula.inputs == ("CURRENT_ASSETS", "INVENTORIES", "CURRENT_LIABILITIES")

    def test_evaluation_is_exact_decimal_arithmetic(self) -> None:
        formula = parse_formula("RECEIVABLES / REVENUE * 365")
        assert formula.evaluate({"RECEIVABLES": Decimal("120"), "REVENUE": Decimal("1460")}) == Decimal("30")

    def test_unary_minus_and_constants(self) -> None:
        assert parse_formula("-A + 2 * B").evaluate({"A": Decimal(1), "B": Decimal("0.5")}) == Decimal(0)

    def test_an_infinite_constant_gives_no_value(self) -> None:
        assert parse_formula("A * 1e400").evaluate({"A": Decimal(1)}) is None

    def test_division_by_zero_gives_no_value(self) -> None:
        assert parse_formula("A / B").evaluate({"A": Decimal(1), "B": Decimal(0)}) is None

    @pytest.mark.parametrize("text", [
        "__import__('os').system('true')", "A.real", "A ** 2", "A if B else C", "A < B", "[A]", "abs(A)",
        "A // B", "A % B", "lambda: 1", "'text'", "A; B", "A and B", "True",
    ])
    def test_anything_beyond_arithmetic_is_refused(self, text: str) -> None:
        with pytest.raises(FormulaError, match="not allowed|not valid"):
            parse_formula(text)

    def test_empty_formula_is_refused_with_an_example(self) -> None:
        with pytest.raises(FormulaError, match="OPERATING_INCOME / REVENUE"):
            parse_formula("  ")

    @given(st.text(alphabet="AB+-*/()._ 0123456789'\"[]:,=<>!%&|^~@", max_size=40))
    def test_any_text_is_read_or_refused_never_run(self, text: str) -> None:
        try:
            formula = parse_formula(text)
        except FormulaError:
            return
        value = formula.evaluate(dict.fromkeys(formula.inputs, Decimal(1)))
        assert value is None or isinstance(value, Decimal)  # arithmetic only: a number or "divides by zero"


def _metrics(**formulas: tuple[str, str | None]) -> dict[str, dict[str, object]]:
    return {code: {"unit": unit, "formula": formula} for code, (unit, formula) in formulas.items()}


class TestGlossaryChecks:
    def test_a_sound_set_has_no_problems(self) -> None:
        metrics = _metrics(REVENUE=("USD_M", None), OPERATING_INCOME=("USD_M", None),
                           OPERATING_MARGIN=("PCT", "OPERATING_INCOME / REVENUE"),
                           EBITDA=("USD_M", "OPERATING_INCOME + REVENUE"), DSO=("DAYS", "REVENUE / REVENUE * 365"))
        assert formula_problems(metrics) == []

    def test_an_unknown_metric_is_named(self) -> None:
        problems = formula_problems(_metrics(REVENUE=("USD_M", None), MARGIN=("PCT", "PROFIT / REVENUE")))
        assert problems == [("MARGIN", "the formula names PROFIT, which is not a metric of the glossary: use metric "
                                       "codes (upper case), or add the metric")]

    def test_a_cycle_is_shown_as_its_path(self) -> None:
        problems = formula_problems(_metrics(A=("USD_M", "B + 1"), B=("USD_M", "C"), C=("USD_M", "A")))
        assert ("A", "the formula depends on itself: A -> B -> C -> A") in problems

    def test_adding_money_to_a_percentage_is_a_unit_mismatch(self) -> None:
        problems = formula_problems(_metrics(REVENUE=("USD_M", None), GM=("PCT", None), BAD=("USD_M", "REVENUE + GM")))
        assert problems and problems[0][0] == "BAD" and "different units" in problems[0][1]

    def test_a_ratio_declared_as_money_is_a_unit_mismatch(self) -> None:
        problems = formula_problems(_metrics(REVENUE=("USD_M", None), COST=("USD_M", None),
                                             RATIO=("USD_M", "COST / REVENUE")))
        assert problems == [("RATIO", "the formula gives a pure number but the metric's unit USD_M measures money: "
                                      "change the unit or the formula")]


class TestScales:
    def test_money_units_are_currency_and_scale(self) -> None:
        assert money_unit("JPY_M") == ("JPY", Decimal(10) ** 6)
        assert money_unit("JPY_B") == ("JPY", Decimal(10) ** 9)
        assert money_unit("PCT") is None and money_unit("COUNT") is None and money_unit("DAYS") is None

    def test_one_currency_goes_to_its_finest_scale(self) -> None:
        assert common_unit(["JPY_B", "JPY_M"]) == "JPY_M"
        assert rescale(Decimal("1.2"), "JPY_B", "JPY_M") == Decimal("1200")

    def test_two_currencies_have_no_common_unit(self) -> None:
        assert common_unit(["JPY_M", "USD_M"]) is None


def test_abs_takes_the_size_of_a_figure_whatever_its_sign() -> None:
    formula = parse_formula("OPERATING_CASH_FLOW - ABS(CAPEX)")
    assert formula.inputs == ("OPERATING_CASH_FLOW", "CAPEX")
    assert formula.evaluate({"OPERATING_CASH_FLOW": Decimal(220), "CAPEX": Decimal(-80)}) == Decimal(140)
    assert formula.evaluate({"OPERATING_CASH_FLOW": Decimal(220), "CAPEX": Decimal(80)}) == Decimal(140)


@pytest.mark.parametrize("text", ["abs(CAPEX)", "ABS(CAPEX, REVENUE)", "ABS()", "ABS(x=CAPEX)", "MAX(CAPEX)"])
def test_no_other_call_is_allowed(text: str) -> None:
    with pytest.raises(FormulaError, match="not allowed|not valid"):
        parse_formula(text)


class TestBalancesOverTheYear:
    def test_avg_is_the_mean_of_the_opening_and_closing_balance(self) -> None:
        formula = parse_formula("REVENUE / AVG(TOTAL_ASSETS)")
        assert (formula.inputs, formula.averaged, formula.prior) == (("REVENUE", "TOTAL_ASSETS"), ("TOTAL_ASSETS",), ())
        values = {"REVENUE": Decimal(2000), "TOTAL_ASSETS": Decimal(2500), "TOTAL_ASSETS@PRIOR": Decimal(2300)}
        assert formula.evaluate(values) == Decimal(2000) / Decimal(2400)

    def test_avg_without_an_opening_balance_is_the_closing_one(self) -> None:
        formula = parse_formula("REVENUE / AVG(TOTAL_ASSETS)")
        assert formula.evaluate({"REVENUE": Decimal(2000), "TOTAL_ASSETS": Decimal(2500)}) == Decimal("0.8")

    def test_prior_is_the_balance_a_year_before(self) -> None:
        formula = parse_formula("COST_OF_SALES + INVENTORIES - PRIOR(INVENTORIES)")
        assert formula.prior == ("INVENTORIES",) and formula.inputs == ("COST_OF_SALES", "INVENTORIES")
        values = {"COST_OF_SALES": Decimal(1200), "INVENTORIES": Decimal(200), "INVENTORIES@PRIOR": Decimal(190)}
        assert formula.evaluate(values) == Decimal(1210)

    @pytest.mark.parametrize("text", ["AVG(REVENUE + COST)", "PRIOR(1)", "AVG(REVENUE, COST)", "AVG()"])
    def test_avg_and_prior_take_one_metric_code(self, text: str) -> None:
        with pytest.raises(FormulaError, match="take one metric code|not allowed"):
            parse_formula(text)
