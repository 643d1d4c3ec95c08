"""Server-side views of cited regions: the cells, slide table, paragraph or page a citation names."""
