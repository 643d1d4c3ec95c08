"""Vela Health, the second example domain: a hospital operator whose fiscal year ends on 30 June.

Its figures and texts, written for this repository. Group figures are the sums of the
divisions and the Hospitals division's revenue the sum of its two hospitals, so the
hierarchy of the domain's glossary holds in the data. Amounts are EUR millions; margins and
occupancy are percentages. Sentences the FAQ quotes are named constants.
"""

from __future__ import annotations

TITLE = "Vela Health FY2025 Annual Review"
WORKBOOK_TITLE = "Vela Health quarterly revenue FY2025"
FISCAL_YEAR_SENTENCE = "Vela Health's fiscal year runs from 1 July to 30 June: FY2025 is the year ended 30 June 2025."
UNIT_SENTENCE = "All amounts are in millions of euros (EUR_M); margins and bed occupancy are percentages."
CANCEL_SENTENCE = "Appointments can be cancelled free of charge up to 24 hours before the visit."
COMPLAINT_SENTENCE = "Every complaint receives a written answer within 10 working days."

# (heading, caption, {metric label: (FY2024, FY2024)}) per entity table of the annual review.
FigureRows = dict[str, tuple[str, str]]
KEY_FIGURES: tuple[tuple[str, str, FigureRows], ...] = (
    ("Group key figures (VELA_GROUP)", "Group key figures, EUR m; EBITDA margin in %",
     {"Revenue": ("1840.0", "2012.5"), "EBITDA": ("312.8", "338.1"), "EBITDA margin": ("17.0", "16.8")}),
    ("Hospitals division (VELA_HOSPITALS)", "Hospitals key figures, EUR m; EBITDA margin and bed occupancy in %",
     {"Revenue": ("1104.0", "1226.0"), "EBITDA": ("198.7", "222.3"), "EBITDA margin": ("18.0", "18.1"),
      "Bed occupancy": ("84.5", "87.2")}),
    ("Clinics division (VELA_CLINICS)", "Clinics key figures, EUR m; EBITDA margin in %",
     {"Revenue": ("456.0", "498.5"), "EBITDA": ("72.9", "81.6"), "EBITDA margin": ("16.0", "16.4")}),
    ("Diagnostics division (VELA_DIAGNOSTICS)", "Diagnostics key figures, EUR m; EBITDA margin in %",
     {"Revenue": ("280.0", "288.0"), "EBITDA": ("41.2", "34.2"), "EBITDA margin": ("14.7", "11.9")}),
)
SITE_FIGURES: tuple[tuple[str, str, FigureRows], ...] = (
    ("Amsterdam General Hospital (VELA_AMSTERDAM)", "Amsterdam General Hospital, EUR m; bed occupancy in %",
     {"Revenue": ("598.0", "640.0"), "Bed occupancy": ("86.0", "88.5")}),
    ("Rotterdam Heart Centre (VELA_ROTTERDAM)", "Rotterdam Heart Centre, EUR m; bed occupancy in %",
     {"Revenue": ("506.0", "586.0"), "Bed occupancy": ("82.7", "85.7")}),
)
# What drove each division's year, one figure-free paragraph per table.
DRIVERS: dict[str, str] = {
    "Group key figures (VELA_GROUP)":
        "Group revenue grew on higher hospital admissions and new outpatient clinics, while the "
        "Diagnostics division weighed on the group margin.",
    "Hospitals division (VELA_HOSPITALS)":
        "Hospitals revenue rose mainly because the new cardiac wing of the Rotterdam Heart Centre opened in "
        "September 2024 and emergency admissions increased at both hospitals.",
    "Clinics division (VELA_CLINICS)":
        "The Clinics division grew through six new outpatient clinics and more telehealth consultations.",
    "Diagnostics division (VELA_DIAGNOSTICS)":
        "Diagnostics EBITDA fell because the two new imaging centres in Utrecht ramped up more slowly than "
        "planned and the reimbursement tariffs for MRI scans were cut in January 2025.",
}
# Fiscal quarters of FY2025 (Q1 = July to September 2024), revenue per division, EUR m.
QUARTERLY_REVENUE: dict[str, tuple[str, str, str, str]] = {
    "Hospitals division": ("296.0", "301.5", "310.0", "318.5"),
    "Clinics division": ("120.0", "122.5", "126.0", "130.0"),
    "Diagnostics division": ("74.0", "71.0", "70.5", "72.5"),
}
QUARTERLY_NOTE = "Unit: EUR_M (all services); fiscal quarters, Q1 = July to September 2024"

POLICY = f"""# Vela Patient Policy

How Vela Health's hospitals and clinics handle appointments, complaints and visits.

## Appointments

{CANCEL_SENTENCE} Later cancellations are charged a fee of 40 euros.

## Complaints

{COMPLAINT_SENTENCE} Patients may escalate an unresolved complaint to the independent ombudsman.

## Visiting hours

Visiting hours on the inpatient wards are from 10:00 to 20:00 every day.
"""

CHAIR_LETTER_TITLE = "Letter from the Chair, FY2025"
CHAIR_LETTER: tuple[str, ...] = (
    "Letter from the Chair, FY2025",
    "Dear shareholders,",
    "FY2025 was a year of growth for Vela Health. The unusually hot weather of July and August 2024",
    "raised emergency admissions at both of our hospitals, and our teams handled the peak well.",
    "The imaging centres in Utrecht are expected to reach full capacity during FY2026.",
    "The board proposes to keep the dividend policy unchanged.",
)
