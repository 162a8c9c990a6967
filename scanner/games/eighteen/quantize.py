"""Write the 8-bit twins of six 18 Holes networks, which a scan runs (a build step, not part of a scan).

The trained networks (``digits_cnn.onnx``, ``square_par.onnx``, ``square_edges.onnx``, ``square_turn.onnx``,
``square_kinds.onnx``, ``scribbles_fairway.onnx``) keep 32-bit weights: they are what training starts from and
writes. A scan runs each one's twin (``digits.eight_bit``), its weights and activations stored as 8-bit integers,
one scale per output channel for the weights: ONNX Runtime reads those with integer arithmetic (a batch of 32
squares in 13 ms instead of 36 for the par reader when it was wider, 4 instead of 6 for the edge reader, 2.2 instead
of 3.6 for the kind reader, 0.5 instead of 0.8 for 32 digit pieces; the narrowed par reader, 20 ms instead of 25 for
20 squares). The activations' ranges are set from inputs like a scan's
(``calibration_sets``): for the whole-square readers, the squares of photographed plans (cut from the true grid;
for the kind and turn readers, by the scanner; for the fairway scribble reader, its own training material,
``scribbles.photo_squares``); for the digit network, the pieces cut from drawn squares. Weights use 7 of their 8
bits (``reduce_range``), so that a CPU without the dot-product instructions for 8-bit integers (older x86), which
sums pairs of products in 16 bits, cannot saturate them.

Each twin's first layer, a 3 x 3 convolution of the one-channel image, is then run over the image's 2 x 2 blocks
(``blocked_first_layer``): ONNX Runtime's 8-bit convolution is slow on one input channel (the par reader's first
layer took as long as its largest), and the same integer sums over four channels of blocks take a quarter of the
time. The twin's readings stay the same to the bit; the five networks read a plan's batches 13-22% sooner.

Run ``python -m scanner.games.eighteen.quantize [--only NETWORK] FOLDER...`` after training any of them (needs
``pip install -e .[train]`` for the ONNX package); it prints, for each network, how often the twin reads an
input as the trained network does (the whole-square readers: on the squares not used to set it, of the later
photos; the par reader 0.9992 on seed 22902, the edge reader 1.000 on seed 15352, the kind reader 1.000
on seed 18502, the fairway scribble reader 1.000 on seed 19902, the digit network 0.9965 on drawn pieces), and the
time each takes for a batch."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np

from scanner.games.eighteen.digits import CNN_MODEL, eight_bit, onnx_net, run_net

CALIBRATION_SHARE = 0.5  # the first half of the squares set the ranges, the rest measure the agreement
BATCH = 32  # inputs per calibration batch
DIGIT_SQUARES = 300  # drawn squares whose pieces set the digit network's ranges (and as many check it)


def digit_inputs(squares: int, seed: int) -> dict[str, np.ndarray]:
    """Inputs of the digit network: the pieces cut from ``squares`` drawn squares of random stream ``seed``
    (``digits_train.square_training_set``, as its held-out test takes them), each turned as a scan turns it.
    Drawn, not photographed: the pieces of a photo are cut by a scan, which runs the twin being written."""
    from scanner.games.eighteen.digits_cnn import arrays
    from scanner.games.eighteen.digits_train import square_training_set

    images, aspects, _ = arrays(square_training_set(squares, seed))
    return {"x": images, "a": aspects}


def calibration_sets(folders: list[Path]) -> dict[Path, Callable[[], tuple[dict[str, np.ndarray], dict[str, np.ndarray]]]]:
    """For each trained network, what gives the inputs its activations' ranges are set from and those its twin
    is checked on: for the whole-square readers, the first ``CALIBRATION_SHARE`` of the squares of the photos in
    ``folders`` (``square_par.photographed_squares``, in the photos' order; for the kind reader, its own
    ``square_kinds.photo_samples`` of the first folder's; for the turn reader, its own ``square_turn.photo_squares``;
    for a scribble reader run as its twin, ``scribbles.photo_squares``) and the rest; for the digit network, drawn
    squares of two random streams."""
    from scanner.games.eighteen import scribbles, square_edges, square_kinds, square_par, square_turn
    from scanner.games.eighteen.truth_photos import read_photos

    def split(x: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        cut = max(1, int(len(x) * CALIBRATION_SHARE))
        return {"x": x[:cut]}, {"x": x[cut:]}

    def kinds() -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        return split(np.concatenate([x for x, _ in read_photos(folders[:1], square_kinds.photo_samples)]).astype(np.float32))

    def scribbled(reader: scribbles.Reader) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        parts = read_photos(folders, partial(scribbles.photo_squares, reader=reader))
        return split(np.concatenate([x for x, _ in parts]).astype(np.float32))

    return {square_par.MODEL: lambda: split(square_par.photographed_squares(folders, square_par.SIDE)[0]),
            square_edges.MODEL: lambda: split(square_par.photographed_squares(folders, square_edges.SIDE)[0]),
            square_turn.MODEL: lambda: split(np.concatenate([x for x, _ in read_photos(folders,
                                                                                 square_turn.photo_squares)])
                                             .astype(np.float32)),
            square_kinds.MODEL: kinds,
            CNN_MODEL: lambda: (digit_inputs(DIGIT_SQUARES, 0), digit_inputs(DIGIT_SQUARES, 1)),
            **{reader.model: partial(scribbled, reader)
               for reader in scribbles.READERS.values() if reader.quantized}}


def batches(inputs: dict[str, np.ndarray], size: int = BATCH) -> Iterator[dict[str, np.ndarray]]:
    """``inputs`` (named arrays of equal length) in batches of ``size``.

    >>> [len(b["x"]) for b in batches({"x": np.zeros(70)}, 32)]
    [32, 32, 6]
    """
    n = len(next(iter(inputs.values())))
    for start in range(0, n, size):
        yield {name: a[start:start + size] for name, a in inputs.items()}


def quantize(model: Path, calibration: dict[str, np.ndarray]) -> Path:
    """Write the 8-bit twin of the ONNX network at ``model`` (``eight_bit(model)``), its activations' ranges
    set from the named ``calibration`` inputs."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = batches(calibration)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.left, None)

    import onnx

    quantize_static(str(model), str(eight_bit(model)), Reader(), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                    reduce_range=True)
    onnx.save(blocked_first_layer(onnx.load(str(eight_bit(model)))), str(eight_bit(model)))
    onnx_net.cache_clear()
    return eight_bit(model)


def blocked_first_layer(twin):
    """The 8-bit twin ``twin`` (an ``onnx.ModelProto`` as ``quantize_static`` writes it: the one-channel image
    quantized, a 3 x 3 convolution padded by a pixel with its ReLU, quantized, then a 2 x 2 max pooling) with that
    convolution made over the image's 2 x 2 blocks (``SpaceToDepth``: four channels at half the size), each block
    giving its four pixels' outputs as four groups of channels, and the pooling taken over those groups. Every
    output is the same sum of the same integer products (the blocked weights hold each weight once and zeros), so
    the twin reads every input to the bit as before, in less time: ONNX Runtime's 8-bit convolution works poorly
    on nine products a pixel.

    A twin whose first node is already the blocking is returned as it is."""
    import onnx
    from onnx import helper, numpy_helper

    graph = twin.graph
    if graph.node[0].op_type == "SpaceToDepth":
        return twin
    producer = {out: node for node in graph.node for out in node.output}
    consumer = {inp: node for node in graph.node for inp in node.input}
    try:
        conv = next(node for node in graph.node if node.op_type == "Conv")
        quantize_input = producer[producer[conv.input[0]].input[0]]
        weight, bias = producer[conv.input[1]], producer[conv.input[2]]
        quantize_output = consumer[conv.output[0]]
        pool = consumer[consumer[quantize_output.output[0]].output[0]]
    except (StopIteration, KeyError, IndexError):
        pool = None
    if (pool is None or quantize_input.op_type != "QuantizeLinear" or pool.op_type != "MaxPool"
            or [helper.get_attribute_value(a) for a in pool.attribute if a.name == "kernel_shape"] != [[2, 2]]):
        raise ValueError("not an 8-bit twin whose first layer is a quantized convolution and a 2 x 2 max pooling")
    stored = {init.name: init for init in graph.initializer}

    def replace(name: str, values: np.ndarray) -> None:
        graph.initializer.remove(stored[name])
        graph.initializer.append(numpy_helper.from_array(values, name))

    w = numpy_helper.to_array(stored[weight.input[0]])
    channels = w.shape[0]
    # output channel (2 * ay + ax) * channels + c is channel c at pixel (ay, ax) of a block; its input pixel at
    # offset (ky - 1, kx - 1) is pixel (ry, rx) of the block (qy, qx) away
    blocked = np.zeros((4 * channels, 4, 3, 3), w.dtype)
    for ay, ax, ky, kx in np.ndindex(2, 2, 3, 3):
        (qy, ry), (qx, rx) = divmod(ay + ky - 1, 2), divmod(ax + kx - 1, 2)
        blocked[(2 * ay + ax) * channels:(2 * ay + ax + 1) * channels, 2 * ry + rx, qy + 1, qx + 1] = w[:, 0, ky, kx]
    replace(weight.input[0], blocked)
    for name in (*weight.input[1:], *bias.input):
        replace(name, np.tile(numpy_helper.to_array(stored[name]), 4))

    side = graph.input[0].type.tensor_type.shape.dim[2].dim_value // 2
    graph.initializer.extend([numpy_helper.from_array(np.array(shape, np.int64), name) for name, shape in
                              (("blocks_by_pixel", [0, side * side, 4, channels]), ("pooled", [0, channels, side, side]))])
    scale, zero = quantize_output.input[1:]

    def step(op: str, source: str, name: str, **attributes) -> tuple[list, str]:
        # each step's output quantized at the convolution's own scale, so the runtime keeps it in 8 bits
        return [helper.make_node(op, [source, *attributes.pop("inputs", [])], [name], name=name, **attributes),
                helper.make_node("QuantizeLinear", [name, scale, zero], [name + "_q"], name=name + "_q"),
                helper.make_node("DequantizeLinear", [name + "_q", scale, zero], [name + "_dq"], name=name + "_dq")], name + "_dq"

    steps, last = [], consumer[quantize_output.output[0]].output[0]
    for op, name, attributes in (("Transpose", "blocks_last", {"perm": [0, 2, 3, 1]}),
                                 ("Reshape", "blocks_pixels", {"inputs": ["blocks_by_pixel"]}),
                                 ("Transpose", "pixels_last", {"perm": [0, 3, 1, 2]}),
                                 ("MaxPool", "pixels_pooled", {"kernel_shape": [1, 4], "strides": [1, 4]})):
        nodes, last = step(op, last, name, **attributes)
        steps += nodes
    steps.append(helper.make_node("Reshape", [last, "pooled"], [pool.output[0]], name="pooled"))
    at = list(graph.node).index(pool)
    graph.node.remove(pool)
    for offset, node in enumerate(steps):
        graph.node.insert(at + offset, node)
    graph.node.insert(0, helper.make_node("SpaceToDepth", [quantize_input.input[0]], ["image_blocks"], blocksize=2,
                                          name="image_blocks"))
    quantize_input.input[0] = "image_blocks"
    onnx.checker.check_model(twin)
    return twin


def seconds_per_batch(model: Path, inputs: dict[str, np.ndarray], repeats: int = 5) -> float:
    """Median time the network at ``model`` takes to read the first ``BATCH`` of ``inputs``."""
    batch = next(batches(inputs))
    run_net(model, batch)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run_net(model, batch)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


if __name__ == "__main__":
    import sys

    import cv2

    cv2.setNumThreads(1)
    if len(sys.argv) < 2:
        sys.exit("usage: python -m scanner.games.eighteen.quantize [--only NETWORK] FOLDER... (synthetic photos with "
                 "truth files)")
    # --only NAME: that network alone (its file's name without ".onnx"); the others' twins stay as they are
    only = sys.argv[2] if sys.argv[1] == "--only" else None
    folders = [Path(a) for a in sys.argv[3 if only else 1:]]
    for model, inputs in calibration_sets(folders).items():
        if only and model.stem != only:
            continue
        calibration, held = inputs()
        twin = quantize(model, calibration)
        agree = (run_net(model, held).argmax(axis=1) == run_net(twin, held).argmax(axis=1)).mean()
        n = len(next(iter(held.values())))
        print(f"wrote {twin.name}: the same class as {model.name} on {agree:.4f} of {n} inputs; "
              f"{1000 * seconds_per_batch(model, held):.1f} ms a batch of {BATCH} -> "
              f"{1000 * seconds_per_batch(twin, held):.1f} ms")
