"""``OnnxEmbedder``: a sentence-embedding model on onnxruntime, tokenised by ``tokenizers`` (no torch).

The model and tokenizer files come from installed pip packages (see ``embedding_models``),
never from a model hub. Nothing heavy is imported until the first ``embed`` (or ``load``), so
building the embedder costs a Lambda cold start nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import (
    DEFAULT_MODEL,
    EmbeddingEngine,
    ModelFiles,
    find_model,
    import_engine,
    model_spec,
)
from ragspine.llm.pooling import l2_normalise, mean_pool

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer
else:
    np = LazyModule("numpy")

__all__ = ["ModelFiles", "OnnxEmbedder", "find_model"]

_MAX_POSITIONS = 512  # BERT-family models have 512 position embeddings
_PAD_TOKEN = "[PAD]"


class OnnxEmbedder:
    """Unit-length sentence vectors from an ONNX model: mean pooling over tokens, then L2 normalisation.

    Thread-safe: the model loads once, under a lock, on first use; onnxruntime sessions and
    ``tokenizers`` tokenizers may then be shared by threads.
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, batch_size: int = 32, max_seq_length: int | None = None,
                 threads: int | None = None) -> None:
        """Describe the embedder; nothing is loaded yet.

        Args:
            model: a name from ``KNOWN_MODELS`` whose engine is ONNX.
            batch_size: texts per onnxruntime call (texts of similar length are batched together).
            max_seq_length: tokens kept per text (longer texts are truncated); the model's default when None.
            threads: onnxruntime intra-op threads; onnxruntime picks (one per core) when None.

        Raises:
            ConfigurationError: unknown model, a model for another engine, or a limit out of range.
        """
        spec = model_spec(model)
        if spec.engine is not EmbeddingEngine.ONNX:
            raise ConfigurationError(f"embedding model {model!r} runs on {spec.engine.value}, not onnxruntime")
        max_len = spec.max_seq_length if max_seq_length is None else max_seq_length
        if not 2 < max_len <= _MAX_POSITIONS:
            raise ConfigurationError(f"max_seq_length must be between 3 and {_MAX_POSITIONS}, not {max_len}")
        if batch_size < 1 or (threads is not None and threads < 1):
            raise ConfigurationError("batch_size and threads must be positive")
        self.name = spec.name
        self.dimension = spec.dimension
        self.max_seq_length = max_len
        self._batch_size = batch_size
        self._threads = threads
        self._lock = threading.Lock()
        self._runtime: _Runtime | None = None

    def load(self) -> None:
        """Load the model now rather than on the first ``embed`` (for a warm-up or a benchmark).

        Raises:
            EmbedderModelMissingError: a package with the model, tokenizer or engine is not installed.
            EmbedderUnavailableError: the model file could not be loaded.
        """
        self._loaded()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order.

        Args:
            texts: the texts; each is truncated to ``max_seq_length`` tokens.

        Returns:
            ``len(texts)`` lists of ``dimension`` floats.

        Raises:
            EmbedderModelMissingError: a package with the model, tokenizer or engine is not installed.
            EmbedderUnavailableError: the model could not be loaded or run.
        """
        if not texts:
            return []
        runtime = self._loaded()
        # Batch texts of similar length together: less padding, less wasted compute.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self._batch_size):
            chunk = order[start:start + self._batch_size]
            for index, vector in zip(chunk, runtime.encode([texts[i] for i in chunk]), strict=True):
                vectors[index] = vector
        return vectors

    def _loaded(self) -> _Runtime:
        runtime = self._runtime
        if runtime is None:
            with self._lock:
                if self._runtime is None:
                    self._runtime = _load_runtime(find_model(self.name), self.max_seq_length, self._threads)
                runtime = self._runtime
        return runtime


@dataclass(frozen=True, slots=True)
class _Runtime:
    """A loaded session and tokenizer."""

    session: Any  # onnxruntime.InferenceSession (onnxruntime ships no type hints)
    tokenizer: Tokenizer
    input_names: frozenset[str]
    output_name: str
    model_name: str

    def encode(self, texts: list[str]) -> list[list[float]]:
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        try:
            hidden = self.session.run([self.output_name], {k: v for k, v in feeds.items() if k in self.input_names})
        except Exception as exc:  # onnxruntime raises its own, untyped, exception classes
            raise EmbedderUnavailableError(f"embedding model {self.model_name!r} failed to run") from exc
        pooled: list[list[float]] = l2_normalise(mean_pool(hidden[0], mask)).tolist()
        return pooled


def _load_runtime(files: ModelFiles, max_seq_length: int, threads: int | None) -> _Runtime:
    ort = import_engine("onnxruntime", distribution="onnxruntime", install="pip install onnxruntime")
    tokenizers = import_engine("tokenizers", distribution="tokenizers", install="pip install --no-deps tokenizers")
    if files.tokenizer_path is None:
        raise ConfigurationError(f"embedding model {files.spec.name!r} names no tokenizer file")
    options = ort.SessionOptions()
    options.inter_op_num_threads = 1  # one graph at a time; parallelism comes from intra-op threads
    # Idle worker threads sleep instead of spinning, so they do not compete with other work on a
    # small shared machine (two cores in CI; a fraction of a core in Lambda below 1,769 MB).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if threads is not None:
        options.intra_op_num_threads = threads
    try:
        session = ort.InferenceSession(str(files.model_path), sess_options=options,
                                       providers=["CPUExecutionProvider"])
        tokenizer = tokenizers.Tokenizer.from_file(str(files.tokenizer_path))
    except Exception as exc:  # onnxruntime and tokenizers raise their own, untyped, exception classes
        raise EmbedderUnavailableError(f"embedding model {files.spec.name!r} could not be loaded") from exc
    tokenizer.enable_truncation(max_length=max_seq_length)
    pad_id = tokenizer.token_to_id(_PAD_TOKEN)
    tokenizer.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token=_PAD_TOKEN)
    return _Runtime(
        session=session,
        tokenizer=tokenizer,
        input_names=frozenset(node.name for node in session.get_inputs()),
        output_name=session.get_outputs()[0].name,
        model_name=files.spec.name,
    )
