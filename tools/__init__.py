"""Developer tools that are not part of the engine layer (nothing here ships to Lambda)."""
