"""Medians and percentiles from one partition each: numpy's numbers, bit for bit and of numpy's precision."""

import numpy as np
import pytest

from scanner.quantiles import median, percentile


def _alike(ours, numpys) -> bool:
    ours, numpys = np.asarray(ours), np.asarray(numpys)
    return ours.dtype == numpys.dtype and ours.shape == numpys.shape and np.array_equal(ours, numpys)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (56, 56), (12, 14, 1, 52, 52)])
def test_over_all_values_as_numpy(dtype, shape):
    rng = np.random.default_rng(sum(shape))
    # ink-like values: many zeros (paper), ties, a long tail
    values = np.where(rng.random(shape) < 0.6, 0.0, rng.random(shape) ** 3).astype(dtype)
    inner = values[..., 1:-1] if shape[-1] > 2 else values  # a view, as the scanner passes
    assert _alike(median(inner), np.median(inner))
    for q in (0, 1, 10, 25, 50, 90, 99, 99.5, 100):
        assert _alike(percentile(inner, q), np.percentile(inner, q))
    assert _alike(percentile(inner, (10, 50)), np.percentile(inner, (10, 50)))


def test_along_the_last_axis_as_numpy():
    rng = np.random.default_rng(3)
    rows = (rng.random((12, 16, 3136)) ** 2).astype(np.float32)
    rows[0, 0] = 0.25  # a row of one value
    assert _alike(median(rows, axis=-1), np.median(rows, axis=-1))
    assert _alike(percentile(rows, 99, axis=-1), np.percentile(rows, 99, axis=-1))
    assert _alike(percentile(rows, (10, 50), axis=-1), np.percentile(rows, (10, 50), axis=-1))


def test_a_float32_result_keeps_its_precision_in_arithmetic():
    # numpy's float32 percentile times a Python float stays a float32: the scanner's thresholds depend on it
    values = np.float32([0.1, 0.7, 0.3, 0.9, 0.2])
    assert (0.35 * percentile(values, 99)).dtype == np.float32


def test_other_axes_are_refused():
    with pytest.raises(ValueError, match="last axis"):
        median(np.zeros((3, 4)), axis=0)
