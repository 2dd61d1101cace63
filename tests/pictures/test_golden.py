"""Golden images: one position per game drawn and compared, pixel by pixel with a tolerance, against a stored PNG.

A change that moves, recolours or drops anything fails; font hinting and anti-aliasing differences between
machines stay under the tolerance. After an intended change of a picture, rewrite the goldens and look at them:
``KLEOS_UPDATE_GOLDEN=1 python -m pytest -q tests/pictures/test_golden.py``.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from arena.pictures import random_position
from engine.registry import list_games, load_game
from engine.svg import render, to_png

GOLDEN = Path(__file__).parent / "golden"
# game -> (options, seed, plies, seat): a position with pieces of every kind on the board
POSITIONS = {
    "goofspiel": ({"players": 3, "cards": 8}, 3, 12, 1),
    "polis": ({}, 3, 300, 0),
    "mare_nostrum": ({"players": 5}, 3, 900, 0),
    "pantikapaion": ({"players": 3}, 5, 300, 0),
    "hellas": ({}, 1, 0, 0),        # the set-up: it stays put while the rules of the year are still being built
}
SCALE = 0.6
PIXEL_DIFF = 0.25          # a pixel differs when a channel moves by more than this (0..1)
MOST_DIFFERENT = 0.003     # at most this share of the pixels may differ (a moved card is about 1%)


def _need_golden_tools():
    pytest.importorskip("PIL", reason="comparing images needs Pillow")
    # the goldens were drawn with DejaVu Sans; another font moves every label (apt-get install fonts-dejavu-core)
    match = shutil.which("fc-match") and subprocess.run(["fc-match", "DejaVu Sans"], capture_output=True, text=True)
    if not match or "DejaVuSans" not in match.stdout.replace(" ", ""):
        pytest.skip("golden images need the DejaVu Sans font (fonts-dejavu-core) found by fontconfig")


def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float32) / 255.0


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_picture_matches_its_golden_image(name, png_tools):
    _need_golden_tools()
    if name not in list_games():
        pytest.skip(f"{name} is not registered yet")
    options, seed, plies, seat = POSITIONS[name]
    state = random_position(load_game(name, **options), seed, plies)
    png = to_png(render(state, seat), scale=SCALE)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("KLEOS_UPDATE_GOLDEN") == "1":
        path.write_bytes(png)
    if not path.exists():
        pytest.fail(f"no golden image {path}; write it with KLEOS_UPDATE_GOLDEN=1 and look at it")
    got, want = _pixels(png), _pixels(path.read_bytes())
    assert got.shape == want.shape, f"{name}: picture is {got.shape[:2]}, golden {want.shape[:2]}"
    differing = float(np.mean(np.abs(got - want).max(axis=2) > PIXEL_DIFF))
    assert differing <= MOST_DIFFERENT, f"{name}: {differing:.2%} of the pixels differ from {path}"


def test_the_comparison_sees_a_changed_piece(png_tools):
    """The tolerance is not so loose that one moved unit passes: a random position a ply later must fail it."""
    _need_golden_tools()
    options, seed, plies, seat = POSITIONS["goofspiel"]
    game = load_game("goofspiel", **options)
    a = _pixels(to_png(render(random_position(game, seed, plies), seat), scale=SCALE))
    b = _pixels(to_png(render(random_position(game, seed, plies + 4), seat), scale=SCALE))
    assert a.shape == b.shape
    assert float(np.mean(np.abs(a - b).max(axis=2) > PIXEL_DIFF)) > MOST_DIFFERENT
