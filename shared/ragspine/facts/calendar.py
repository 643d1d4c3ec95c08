"""The fiscal calendar of a domain: which months make up fiscal year N and its quarters."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")


@dataclass(frozen=True, slots=True)
class FiscalCalendar:
    """A fiscal year ends in ``end_month``; ``named_by`` says whether FY N ends or starts in year N.

    ``FiscalCalendar()`` is the calendar year. ``FiscalCalendar(3)`` is the Japanese and Indian
    April–March year, FY2025 ending in March 2025; ``FiscalCalendar(6)`` the July–June year.
    """

    end_month: int = 12
    named_by: str = "end"

    def __post_init__(self) -> None:
        if not 1 <= self.end_month <= 12 or self.named_by not in ("end", "start"):
            raise ValueError(f"invalid fiscal calendar: end_month={self.end_month}, named_by={self.named_by}")

    def fiscal_year_of(self, day: date) -> int:
        """The fiscal year ``day`` falls in."""
        end_year = day.year if day.month <= self.end_month else day.year + 1
        return end_year if self.named_by == "end" or self.end_month == 12 else end_year - 1

    def fiscal_quarter_of(self, day: date) -> tuple[int, int]:
        """(fiscal year, quarter 1–4) of ``day``; Q1 is the first three months after the year end."""
        months_in = (day.month - self.end_month - 1) % 12
        return self.fiscal_year_of(day), months_in // 3 + 1

    def last_completed_year(self, today: date) -> int:
        """The most recent fiscal year that has ended before ``today``."""
        return self.fiscal_year_of(today) - 1

    def describe(self) -> str:
        """``fiscal year = calendar year`` or ``fiscal year ends 31 March, named by its end year``."""
        if self.end_month == 12:
            return "fiscal year = calendar year"
        return f"fiscal year ends in {_MONTHS[self.end_month - 1]}, named by the year it {self.named_by}s in"
