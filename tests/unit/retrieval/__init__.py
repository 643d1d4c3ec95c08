"""Unit tests of the narrative retrieval stages."""
