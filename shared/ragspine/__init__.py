"""RAGSpine: an enterprise question-answering engine that never invents a number."""

__version__ = "0.1.0"
