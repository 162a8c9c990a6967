"""The 8-bit twins a scan runs (``quantize``) read as the trained networks do, on drawn squares neither was
trained or set on: a network trained anew and not quantized again fails here."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

from scanner.games.eighteen import scribbles, square_edges, square_kinds, square_par, square_turn
from scanner.games.eighteen.digits import CNN_MODEL, eight_bit, run_net
from scanner.games.eighteen.digits_cnn import arrays
from scanner.games.eighteen.digits_train import square_training_set
from scanner.games.eighteen.quantize import blocked_first_layer

HELD_OUT_SEED = 5  # drawn squares of a stream no network was trained on, nor any twin set on


@pytest.fixture(scope="module")
def digit_pieces() -> dict[str, np.ndarray]:
    images, aspects, _ = arrays(square_training_set(40, HELD_OUT_SEED, jobs=1))
    return {"x": images, "a": aspects}


def agreement(model, inputs: dict[str, np.ndarray]) -> float:
    trained, twin = run_net(model, inputs), run_net(eight_bit(model), inputs)
    return float((trained.argmax(axis=1) == twin.argmax(axis=1)).mean())


@pytest.mark.parametrize("reader", [square_par, square_edges, square_turn], ids=["par", "edges", "turn"])
def test_a_whole_square_readers_twin_reads_drawn_squares_as_the_trained_network(reader):
    x, _ = square_par.drawn_squares(HELD_OUT_SEED, 60, reader.SIDE, jobs=1)
    assert agreement(reader.MODEL, {"x": x}) >= 0.95  # 60 of 60 when written


def test_the_digit_networks_twin_reads_drawn_pieces_as_the_trained_network(digit_pieces):
    assert len(digit_pieces["x"]) >= 100
    assert agreement(CNN_MODEL, digit_pieces) >= 0.97  # 812 of 812 when written


def test_the_fairway_scribble_readers_twin_gives_drawn_squares_the_trained_networks_chances():
    # its chance is read against 0.5 and 0.99, not only taken as the likelier class: it has to stay close
    reader = scribbles.READERS["fairway"]
    assert reader.runs() == eight_bit(reader.model)
    x, _ = square_par.drawn_squares(HELD_OUT_SEED, 60, scribbles.SIDE, jobs=1)
    trained, twin = (run_net(model, {"x": x})[:, 1] for model in (reader.model, reader.runs()))
    assert np.abs(trained - twin).max() < 0.02  # 0.004 at most on 1,648 photographed squares when written


FAIRWAY_SCRIBBLES = scribbles.READERS["fairway"].model


@pytest.mark.parametrize("model", [CNN_MODEL, square_par.MODEL, square_edges.MODEL, square_turn.MODEL,
                                   square_kinds.MODEL, FAIRWAY_SCRIBBLES], ids=lambda m: m.stem)
def test_each_twin_is_stored_in_eight_bits(model):
    # a twin a third the size or less: weights of one byte, not four (a copy of the trained file fails)
    assert eight_bit(model).stat().st_size < 0.35 * model.stat().st_size


@pytest.mark.parametrize("model", [CNN_MODEL, square_par.MODEL, square_edges.MODEL, square_turn.MODEL,
                                   square_kinds.MODEL, FAIRWAY_SCRIBBLES], ids=lambda m: m.stem)
def test_each_twins_first_layer_runs_over_blocks(model):
    assert onnx.load(str(eight_bit(model))).graph.node[0].op_type == "SpaceToDepth"


def small_network(rng: np.random.Generator, side: int = 12) -> onnx.ModelProto:
    """A network shaped as the readers begin: a 3 x 3 convolution of a one-channel image, ReLU, 2 x 2 max pooling,
    then another convolution and a global maximum, with random weights."""
    weights = {"w1": rng.normal(size=(5, 1, 3, 3)), "b1": rng.normal(size=5) * 0.1,
               "w2": rng.normal(size=(3, 5, 3, 3)), "b2": rng.normal(size=3) * 0.1}
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("GlobalMaxPool", ["c2"], ["y"])]
    graph = helper.make_graph(nodes, "small", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 1, side, side])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3, 1, 1])],
                              [numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def images(rng: np.random.Generator, n: int, side: int = 12) -> np.ndarray:
    return (rng.random((n, 1, side, side)) * (rng.random((n, 1, side, side)) < 0.3)).astype(np.float32)


def run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    return onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_a_twin_run_over_blocks_reads_every_input_to_the_bit_as_before(tmp_path):
    rng = np.random.default_rng(3)
    onnx.save(small_network(rng), tmp_path / "small.onnx")

    class Calibration(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter([{"x": images(rng, 16)} for _ in range(2)])

        def get_next(self):
            return next(self.left, None)

    quantize_static(str(tmp_path / "small.onnx"), str(tmp_path / "twin.onnx"), Calibration(),
                    quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    per_channel=True, reduce_range=True)
    twin = onnx.load(str(tmp_path / "twin.onnx"))
    blocked = blocked_first_layer(onnx.load(str(tmp_path / "twin.onnx")))
    x = images(rng, 40)
    assert blocked.graph.node[0].op_type == "SpaceToDepth"
    assert np.array_equal(run(blocked, x), run(twin, x))
    assert run(blocked, x[:0]).shape == run(twin, x[:0]).shape  # an empty batch too
    assert not np.array_equal(run(twin, x), run(twin, x[::-1]))  # the inputs differ in what they give
    assert blocked_first_layer(blocked) is blocked  # a blocked twin is left as it is


def test_a_network_not_an_eight_bit_twin_is_refused():
    with pytest.raises(ValueError, match="not an 8-bit twin"):
        blocked_first_layer(small_network(np.random.default_rng(0)))
