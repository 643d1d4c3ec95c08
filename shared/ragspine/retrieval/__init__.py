"""Narrative retrieval: chunks with lineage, the ChunkIndex port, fusion and post-processing."""
