"""multilingual-e5-small on onnxruntime with int8 matrix products (``e5_int8_graph``): the ``ort`` kernel.

Tokenisation, the 4-bit word table and the averaging of a long text's windows are the BLAS
kernel's (``E5ModelFile``); onnxruntime runs the layers of one window per call. The graph is
written once from the installed model file into the data folder (``e5-small-int8.onnx``, about
22 MB) and used while it carries that file's hash; without a data folder it is built in memory
at every load (a few seconds).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule
from ragspine.llm.e5_blas import E5ModelFile
from ragspine.llm.e5_int8_graph import INPUT, OUTPUT, SOURCE_KEY, build_graph, source_key
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import import_engine

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

GRAPH_NAME = "e5-small-int8.onnx"
ORT_INSTALL = "pip install 'ragspine[embed]'"
# onnxruntime fusions the session leaves out (``disabled_optimizers``). Without "SkipLayerNormFusion" the
# graph took 10% less CPU, but its vectors moved (0.99937 from BLAS's at the lowest against 0.99939): kept on
SKIPPED_FUSIONS: tuple[str, ...] = ()


def int8_graph_path(data_dir: Path) -> Path:
    """Where a data folder keeps the int8 graph of the installed e5 model."""
    return data_dir / GRAPH_NAME


class E5OrtModel(E5ModelFile):
    """The loaded model: ``encode(texts, is_query)`` gives one mean-pooled, not yet normalised vector per text."""

    def __init__(self, model_path: Path, graph_path: Path | None, threads: int = 1) -> None:
        """Map the model file and open its int8 graph, writing it to ``graph_path`` first when missing or stale.

        Raises:
            EmbedderModelMissingError: onnxruntime (or, to build the graph, onnx) is not installed.
            EmbedderUnavailableError: the model file is unreadable, or onnxruntime refused the graph.
        """
        import_engine("onnxruntime", distribution="onnxruntime", install=ORT_INSTALL)
        super().__init__(model_path)
        key = source_key(model_path)
        self._session = self._kept_session(threads, graph_path, key)
        if self._session is None:
            graph = build_graph(self, key)
            if graph_path is not None:
                _write(graph_path, graph)
            self._session = open_session(graph, threads)

    @staticmethod
    def _kept_session(threads: int, graph_path: Path | None, key: str) -> Any:
        """A session on the kept graph when it exists and was written from this model file by this code."""
        if graph_path is None or not graph_path.is_file():
            return None
        try:
            session = open_session(graph_path.read_bytes(), threads)
        except (OSError, EmbedderUnavailableError):  # unreadable or damaged: written again
            return None
        kept = session.get_modelmeta().custom_metadata_map.get(SOURCE_KEY)
        return session if kept == key else None

    def encode(self, texts: Sequence[str], is_query: bool = False) -> npt.NDArray[np.float32]:
        """One pooled vector per text ([n, 384]); each token window is one onnxruntime call."""
        sequences, owners = self.windows(texts, is_query)
        pooled = np.empty((len(sequences), self.dimension), dtype=np.float32)
        for row, sequence in enumerate(sequences):
            x = self.input_embeddings(np.array(sequence, dtype=np.int64), np.arange(len(sequence)))
            pooled[row] = self._session.run([OUTPUT], {INPUT: x[None]})[0][0]
        return self.text_means(len(texts), sequences, owners, pooled)


def open_session(graph: bytes, threads: int = 1, *, skipped_fusions: Sequence[str] = SKIPPED_FUSIONS) -> Any:
    """An onnxruntime session on ``graph``: ``threads`` intra-op threads that sleep while they wait.

    Raises:
        EmbedderModelMissingError: onnxruntime is not installed.
        EmbedderUnavailableError: onnxruntime refused the graph.
    """
    ort = import_engine("onnxruntime", distribution="onnxruntime", install=ORT_INSTALL)
    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # waiting threads sleep
    try:
        return ort.InferenceSession(graph, sess_options=options, providers=["CPUExecutionProvider"],
                                    disabled_optimizers=list(skipped_fusions))
    except Exception as exc:  # onnxruntime raises its own, untyped, exception classes
        raise EmbedderUnavailableError("onnxruntime could not load the e5 int8 graph") from exc


def _write(path: Path, graph: bytes) -> None:
    """Write through a temporary file, so a reader never sees half a graph."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(graph)
    temporary.replace(path)
