"""Unit tests of the LLM providers: the extractive default and the Bedrock and OpenAI-compatible adapters."""
