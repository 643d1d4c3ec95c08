"""The provenance check's two rates on a slice of the grid (the full grid: ``python -m tests.eval.provenance_rates``)."""

from __future__ import annotations

from tests.eval.provenance_rates import INVENTED, PASSAGES, measure


def test_every_invention_is_caught_and_every_compliant_restatement_accepted() -> None:
    rates = measure([PASSAGES[0], PASSAGES[4], PASSAGES[6]], INVENTED[::3])

    assert rates.invented > 100 and rates.compliant == 36
    assert (rates.caught, rates.missed) == (rates.invented, ())
    assert (rates.accepted, rates.rejected) == (rates.compliant, ())
