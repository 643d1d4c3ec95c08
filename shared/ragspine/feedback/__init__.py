"""Readers' feedback on answers and single numbers."""
