"""Loading photos: EXIF orientation, bounded size, and one-line errors for bad files."""

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner.errors import ScanError
from scanner.load import TURN_STRIP, load_photo


def _marked(width=400, height=300) -> np.ndarray:
    """An RGB image with a white block in the top-left corner, to see where it ends up."""
    rgb = np.zeros((height, width, 3), np.uint8)
    rgb[: height // 4, : width // 4] = 255
    return rgb


@pytest.mark.parametrize(("orientation", "corner"), [(1, (0, 0)), (3, (-1, -1)), (6, (0, -1)), (8, (-1, 0))])
def test_exif_orientation_is_applied(tmp_path, orientation, corner):
    path = tmp_path / "o.jpg"
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(_marked()).save(path, exif=exif, quality=95)
    photo = load_photo(path)
    upright = orientation in (1, 3)
    assert photo.image.shape[:2] == ((300, 400) if upright else (400, 300))
    assert photo.image[corner].mean() > 200  # the marked corner moved as the tag says
    assert photo.exif_orientation == orientation


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_full_size_jpeg_has_opencvs_pixels(tmp_path, orientation, mode):
    """The fast full-size decoder gives exactly what OpenCV gives, turned alike, for every EXIF orientation (the
    photo wider than two of the strips a turn transposes at a time, the last one narrower)."""
    path = tmp_path / "o.jpg"
    exif = Image.Exif()
    exif[0x0112] = orientation
    width = 2 * TURN_STRIP + 37
    noise = np.random.default_rng(orientation).integers(0, 256, (90, width, 3), np.uint8)
    Image.fromarray(noise).convert(mode).save(path, exif=exif, quality=90)
    expected = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert np.array_equal(load_photo(path).image, expected)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_quarter_turn_is_left_as_stored_when_any_turn_is_read_alike(tmp_path, orientation):
    """Asked for any turn, a photo stored a quarter turn off (3, 6, 8) comes as stored, the turn left in
    ``unturned``, which ``upright`` applies; a mirrored one (2, 4, 5, 7) is turned as ever."""
    path = tmp_path / "o.jpg"
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(_marked()).save(path, exif=exif, quality=95)
    shown, as_stored = load_photo(path), load_photo(path, any_turn=True)
    kept = orientation in (3, 6, 8)
    assert as_stored.unturned == (orientation if kept else 1)
    stored = cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    assert np.array_equal(as_stored.image, stored if kept else shown.image)
    assert np.array_equal(as_stored.upright().image, shown.image)
    assert as_stored.scale == shown.scale == 1.0 and as_stored.original_size == shown.original_size


def test_cmyk_jpeg_has_opencvs_pixels(tmp_path):
    path = tmp_path / "cmyk.jpg"
    Image.fromarray(np.random.default_rng(9).integers(0, 256, (90, 120, 3), np.uint8)).convert("CMYK").save(path)
    assert np.array_equal(load_photo(path).image, cv2.imread(str(path), cv2.IMREAD_COLOR))


def test_large_photo_is_reduced_while_decoding(tmp_path):
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), np.full((2000, 3000, 3), 128, np.uint8))
    photo = load_photo(path, max_pixels=1_000_000)
    assert photo.image.shape[0] * photo.image.shape[1] <= 1_000_000
    assert photo.original_size == (3000, 2000)
    assert photo.scale == pytest.approx(photo.image.shape[1] / 3000)


def test_webp_and_png_load(tmp_path):
    for name in ("a.webp", "a.png"):
        cv2.imwrite(str(tmp_path / name), _marked()[:, :, ::-1])
        assert load_photo(tmp_path / name).image.shape == (300, 400, 3)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("not an image"), "not a readable image"),
        (lambda p: p.write_bytes(_jpeg_bytes()[:3000]), "truncated"),
        (lambda p: cv2.imwrite(str(p), np.zeros((1, 1, 3), np.uint8)), "too small"),
    ],
    ids=["text", "truncated", "one-pixel"],
)
def test_bad_files_raise_one_line(tmp_path, make, message):
    path = tmp_path / "bad.jpg"
    make(path)
    with pytest.raises(ScanError, match=message) as err:
        load_photo(path)
    assert "\n" not in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(ScanError, match="no such file"):
        load_photo(tmp_path / "nope.jpg")


def _jpeg_bytes() -> bytes:
    ok, data = cv2.imencode(".jpg", (np.random.default_rng(0).random((300, 400, 3)) * 255).astype(np.uint8))
    assert ok
    return data.tobytes()
