"""Deterministic analytics of the structured channel: comparisons, rankings, shares and sums (no LLM).

``cues`` reads what a question asks for from the domain's intent cues (a pure function of the
text), ``periods`` resolves relative and prior periods from the day and the fiscal calendar,
``compute`` derives every computed figure from found facts, each citing its inputs.
"""
