"""The engine's one number reader: every place that finds numbers in text uses it.

``read_numbers`` finds each number in any script and surface form as canonical values,
``sourced_values`` gives what a set of evidence texts accounts for (the same normalisation),
``is_number`` tells whether a short text (a table cell) is one number.
"""

from ragspine.numbers.reader import NumberMention, canonical, is_number, normalise, read_numbers, sourced_values

__all__ = ["NumberMention", "canonical", "is_number", "normalise", "read_numbers", "sourced_values"]
