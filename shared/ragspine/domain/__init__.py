"""A company's domain folder: its schemas, loading it with line marks, and publishing it.

The shipped folders themselves (data, not code) are under ``ragspine/shipped_domains/``.
"""
