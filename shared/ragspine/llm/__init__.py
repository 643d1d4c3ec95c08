"""Model providers: the LLMProvider and Embedder ports and their adapters."""
