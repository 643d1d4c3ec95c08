"""Ingestion: documents parsed into blocks, then facts and chunks."""
