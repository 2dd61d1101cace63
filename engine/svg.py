"""Pictures of game states as SVG: the drawing kit every game's ``svg.py`` uses, and ``render`` that finds it.

A game draws itself in ``engine/games/<game>/svg.py`` with one function::

    def draw(state, seat: int | None) -> Canvas

``seat=None`` draws the whole truth; a seat draws only that seat's information set: the module reads
``state.observation(seat)`` (and public facts), never the hidden parts of ``state``. The tests check this for every
game: a determinized copy (hidden state resampled, consistent with the seat's view) must give the same picture.
Map geometry is data (``data/layout.json`` beside the game's other data, read with ``load_layout``), so the real
board's coordinates can replace the schematic ones without touching code.

Elements carry a ``class`` naming what they are ("unit", "tile", "building", "card" ...) and ``data-*``
attributes (owner, area), so tests can count them against the state and the replay viewer can style them.
"""
from __future__ import annotations

import importlib
import json
import math
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from engine.errors import KleosError

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#2b2b2b"
MUTED = "#8a8478"
PAPER = "#fbf8f1"
SEA = "#cfe3ee"
LAND = "#efe6cf"
HIDDEN = "#6d6a75"

# seat colours when a game names none of its own: distinct, readable on paper, fine for colour-blind eyes
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf")


class PictureError(KleosError):
    """A picture cannot be drawn: no svg module for the game, a bad layout file, a bad seat."""


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _num(v) -> str:
    if isinstance(v, float):
        text = f"{v:.1f}"
        return text[:-2] if text.endswith(".0") else text
    return str(v)


_ATTR_NAMES: dict[str, str] = {"cls": "class"}


def _attr_name(key: str) -> str:
    name = _ATTR_NAMES.get(key)
    if name is None:
        name = _ATTR_NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def _attrs(attrs: dict) -> str:
    # hot: a long game's replay page draws a few million attributes, so no quoteattr() per value
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        if isinstance(value, str):
            if "&" in value or "<" in value or ">" in value or '"' in value:
                value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        else:
            value = _num(value)
        out.append(f' {_attr_name(key)}="{value}"')
    return "".join(out)


@lru_cache(maxsize=65536)
def _element_text(tag: str, attrs: tuple, tip: str | None, body: str) -> str:
    # memoized: most of a board (borders, areas, labels) is the same element from one picture to the next
    inner = (f"<title>{escape(tip)}</title>" if tip else "") + body
    if inner:
        return f"<{tag}{_attrs(dict(attrs))}>{inner}</{tag}>"
    return f"<{tag}{_attrs(dict(attrs))}/>"


class Canvas:
    """An SVG document built element by element (no dependencies; the text is deterministic)."""

    def __init__(self, width: float, height: float, title: str = "", background: str = PAPER):
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.title = title
        if background:
            self.rect(0, 0, width, height, fill=background, cls="background")

    # --- primitives ------------------------------------------------------------------------------------
    def _element(self, tag: str, attrs: dict, tip: str | None = None, body: str = "") -> None:
        self.parts.append(_element_text(tag, tuple(attrs.items()), tip, body))

    def rect(self, x, y, w, h, fill="none", stroke=None, tip=None, **attrs):
        self._element("rect", {"x": x, "y": y, "width": w, "height": h, "fill": fill, "stroke": stroke, **attrs}, tip)

    def circle(self, cx, cy, r, fill="none", stroke=None, tip=None, **attrs):
        self._element("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill, "stroke": stroke, **attrs}, tip)

    def line(self, x1, y1, x2, y2, stroke=INK, tip=None, **attrs):
        self._element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": stroke, **attrs}, tip)

    def polygon(self, points, fill="none", stroke=None, tip=None, **attrs):
        pts = " ".join(f"{_num(round(x, 1))},{_num(round(y, 1))}" for x, y in points)
        self._element("polygon", {"points": pts, "fill": fill, "stroke": stroke, **attrs}, tip)

    def path(self, d: str, fill="none", stroke=None, tip=None, **attrs):
        self._element("path", {"d": d, "fill": fill, "stroke": stroke, **attrs}, tip)

    def text(self, x, y, s, size=12, anchor="start", fill=INK, weight=None, tip=None, **attrs):
        self._element("text", {"x": x, "y": y, "font-size": size, "text-anchor": anchor, "fill": fill,
                               "font-weight": weight, **attrs}, tip, escape(str(s)))

    @contextmanager
    def group(self, tip: str | None = None, **attrs):
        self.parts.append(f"<g{_attrs(attrs)}>" + (f"<title>{escape(tip)}</title>" if tip else ""))
        yield self
        self.parts.append("</g>")

    # --- pieces every game uses -----------------------------------------------------------------------
    def tokens(self, cx, cy, count: int, colour: str, cls: str, shape: str = "square", size: float = 9,
               per_row: int = 5, tip: str | None = None, **attrs):
        """``count`` pieces (one element each, so they can be counted) in rows centred on (cx, cy)."""
        if count <= 0:
            return
        rows = math.ceil(count / per_row)
        gap = size * 1.25
        for i in range(count):
            row, col = divmod(i, per_row)
            in_row = min(per_row, count - row * per_row)
            x = cx + (col - (in_row - 1) / 2) * gap
            y = cy + (row - (rows - 1) / 2) * gap
            self.piece(x, y, colour, cls, shape, size, tip=tip, **attrs)

    def piece(self, x, y, colour: str, cls: str, shape: str = "square", size: float = 9, tip=None, **attrs):
        h = size / 2
        common = {"fill": colour, "stroke": INK, "stroke-width": 0.8, "cls": cls, "tip": tip, **attrs}
        if shape == "circle":
            self.circle(x, y, h, **common)
        elif shape == "boat":
            self.polygon([(x - h * 1.3, y - h * 0.4), (x + h * 1.3, y - h * 0.4), (x + h * 0.8, y + h * 0.6),
                          (x - h * 0.8, y + h * 0.6)], **common)
        elif shape == "tower":
            self.polygon([(x - h, y + h), (x - h, y - h * 0.6), (x - h * 0.5, y - h * 0.6), (x - h * 0.5, y - h),
                          (x + h * 0.5, y - h), (x + h * 0.5, y - h * 0.6), (x + h, y - h * 0.6), (x + h, y + h)],
                         **common)
        elif shape == "disc":
            self._element("ellipse", {"cx": x, "cy": y, "rx": h * 1.1, "ry": h * 0.7, **{
                k: v for k, v in common.items() if k != "tip"}}, tip)
        elif shape == "diamond":
            self.polygon([(x, y - h), (x + h, y), (x, y + h), (x - h, y)], **common)
        else:
            self.rect(x - h, y - h, size, size, rx=1.5, **common)

    def card(self, x, y, w, h, label: str | None, colour: str = "#fffdf7", cls: str = "card", tip=None, **attrs):
        """A card or block face up (``label``) or face down (``label`` None: no text, the back's pattern)."""
        if label is None:
            with self.group(cls=cls, tip=tip or "face down", data_face="down", **attrs):
                self.rect(x, y, w, h, fill=HIDDEN, stroke=INK, rx=3, stroke_width=0.8)
                self.path(f"M{_num(x + 3)},{_num(y + 3)} L{_num(x + w - 3)},{_num(y + h - 3)} "
                          f"M{_num(x + w - 3)},{_num(y + 3)} L{_num(x + 3)},{_num(y + h - 3)}",
                          stroke="#9a97a3", stroke_width=0.8)
            return
        with self.group(cls=cls, tip=tip, data_face="up", **attrs):
            self.rect(x, y, w, h, fill=colour, stroke=INK, rx=3, stroke_width=0.8)
            self.text(x + w / 2, y + h / 2 + min(h, 2 * w) * 0.14, label, size=min(h * 0.42, w * 0.55),
                      anchor="middle", weight="bold")

    def block(self, x, y, size: float, colour: str, label: str | None = None, rating=None, steps: int = 0,
              max_steps: int = 0, cls: str = "unit", badge: str | None = None, tip: str | None = None, **attrs):
        """A wooden block of a block game, standing at (x, y) (its centre). Face up (``label`` given): its name,
        its rating, a pip for every step left of ``max_steps``, a stripe of the ``badge`` colour (a nationality)
        and ``tip`` as its tooltip. Face down (``label`` None): only its side's colour and the ``data-*``
        attributes given, no text and no tooltip, i.e. nothing its owner's opponent could not see across the
        table."""
        h = size / 2
        face = "up" if label is not None else "down"
        with self.group(cls=cls, data_face=face, tip=(tip or label) if label is not None else None, **attrs):
            self.rect(x - h + 2, y - h + 2, size, size, fill="#000000", fill_opacity=0.2, rx=3)
            self.rect(x - h, y - h, size, size, fill=colour, stroke=INK, stroke_width=0.9, rx=3)
            if label is None:
                self.rect(x - h + 3, y - h + 3, size - 6, size - 6, fill="none", stroke="#ffffff", stroke_opacity=0.5,
                          rx=2)
                return
            self.rect(x - h + 3, y - h + 3, size - 6, size - 6, fill="#fffdf5", rx=2)
            tx, room = x, size - 7
            if badge:
                stripe = size * 0.12
                self.rect(x - h + 3, y - h + 3, stripe, size - 6, fill=badge, rx=1)
                tx, room = x + stripe / 2, room - stripe
            self.text(tx, y + size * 0.08, label, size=min(size * 0.3, room / (0.62 * max(1, len(label)))),
                      anchor="middle", weight="bold")
            if rating is not None:
                self.text(tx, y + h - 5, str(rating), size=min(size * 0.22, room / (0.56 * max(1, len(str(rating))))),
                          anchor="middle", fill=MUTED)
            for k in range(max_steps):
                px = x - h + 6 + k * (size - 12) / max(1, max_steps - 1)
                self.circle(px, y - h + 7, size * 0.05, fill=INK if k < steps else "none", stroke=INK,
                            stroke_width=0.6)

    def panel(self, x, y, w, lines: list, title: str | None = None, size: float = 11, colour: str = INK,
              cls: str = "panel") -> float:
        """A boxed list of text lines; returns the y below it. A line may be (text, colour)."""
        lh = size * 1.35
        h = lh * (len(lines) + (1 if title else 0)) + size * 0.8
        with self.group(cls=cls):
            self.rect(x, y, w, h, fill="#ffffff", stroke=colour, rx=4, stroke_width=1.2, fill_opacity=0.85)
            ty = y + lh
            if title:
                self.text(x + 6, ty, title, size=size, weight="bold", fill=colour)
                ty += lh
            for line in lines:
                text, fill = (line, INK) if isinstance(line, str) else line
                self.text(x + 6, ty, text, size=size, fill=fill)
                ty += lh
        return y + h

    def bar(self, x, y, w, h, value: float, maximum: float, colour: str, label: str = "", cls: str = "track"):
        with self.group(cls=cls):
            self.rect(x, y, w, h, fill="#eeeae0", stroke=MUTED, stroke_width=0.5)
            if maximum > 0 and value > 0:
                self.rect(x, y, w * min(1.0, value / maximum), h, fill=colour, fill_opacity=0.55)
            if label:
                self.text(x + 3, y + h - 2.5, label, size=h - 3, fill=INK)

    def heading(self, lines: list[str], size: float = 15) -> float:
        """The title lines at the top-left; returns the y below them."""
        y = size + 8
        for i, line in enumerate(lines):
            self.text(12, y, line, size=size if i == 0 else size * 0.75, weight="bold" if i == 0 else None,
                      fill=INK if i == 0 else MUTED, cls="heading")
            y += size * (1.2 if i == 0 else 1.0)
        return y

    # --- the document ----------------------------------------------------------------------------------
    def document(self) -> list[str]:
        """The SVG text as its pieces: the opening tag with the title, every element, the closing tag."""
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width)}" height="{_num(self.height)}" '
                f'viewBox="0 0 {_num(self.width)} {_num(self.height)}" font-family="{FONT}">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        return [head + title, *self.parts, "</svg>\n"]

    def to_svg(self) -> str:
        return "".join(self.document())


# --- map layouts (data) ------------------------------------------------------------------------------------
def load_layout(path, required: dict[str, list[str]]) -> dict:
    """Read a layout file: ``{"width", "height", "<kind>": {name: [x, y]}, ...}``.

    ``required`` names, per kind (e.g. "areas", "seas"), every name the map has; a name missing from the file, or
    a coordinate that is not two numbers inside the picture, is an error naming the file and the entry.
    """
    path = Path(path)
    try:
        layout = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise PictureError(f"layout {path}: cannot read it: {e}") from None
    width, height = layout.get("width"), layout.get("height")
    if not all(isinstance(v, (int, float)) and v > 0 for v in (width, height)):
        raise PictureError(f"layout {path}: 'width' and 'height' must be positive numbers")
    for kind, names in required.items():
        table = layout.get(kind)
        if not isinstance(table, dict):
            raise PictureError(f"layout {path}: lacks the table {kind!r}")
        missing = [n for n in names if n not in table]
        if missing:
            raise PictureError(f"layout {path}: {kind} lacks {', '.join(missing)}")
        for name in names:
            xy = table[name]
            if (not isinstance(xy, list) or len(xy) != 2 or not all(isinstance(v, (int, float)) for v in xy)
                    or not (0 <= xy[0] <= width and 0 <= xy[1] <= height)):
                raise PictureError(f"layout {path}: {kind}.{name} must be [x, y] inside {width}x{height}, got {xy!r}")
    return layout


def links(canvas: Canvas, points: dict, edges, stroke=MUTED, dash: str | None = None, width: float = 2.0,
          cls: str = "link"):
    """Draw the edges (pairs of names) of an area graph between the named points."""
    for a, b in edges:
        (x1, y1), (x2, y2) = points[a], points[b]
        canvas.line(x1, y1, x2, y2, stroke=stroke, stroke_width=width, stroke_dasharray=dash,
                    stroke_linecap="round", cls=cls)


# --- finding a game's picture ------------------------------------------------------------------------------
def picture_module(game_name: str):
    """The ``svg`` module of a registered game (``PictureError`` if the game draws no picture yet)."""
    from engine.registry import game_spec
    spec = game_spec(game_name)
    package = spec.make.__module__          # the game's package defines GAME and its make function
    try:
        return importlib.import_module(f"{package}.svg")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.svg":
            raise
        raise PictureError(f"{game_name} has no picture yet ({package.replace('.', '/')}/svg.py)") from None


def text_picture(state, seat=None) -> Canvas:
    """The game's own text view (``state.render(seat)``) as a picture: what a game without an ``svg.py`` shows in
    ``kleos render`` and the replay page (it is as seat-safe as the game's text view)."""
    try:
        text = state.render(seat)
    except NotImplementedError:
        raise PictureError(f"{state.game.name} has neither a picture (svg.py) nor a text view") from None
    lines = text.splitlines() or [""]
    size, line_h = 12.0, 15.0
    width = 24 + 7.3 * max(len(line) for line in lines)
    c = Canvas(max(320.0, width), 24 + line_h * len(lines), title=f"{state.game.name} (text view)")
    for i, line in enumerate(lines):
        # no-break spaces keep the columns of the text view (SVG collapses runs of spaces)
        c.text(12, 18 + i * line_h, line.replace(" ", "\u00a0"), size=size,
               font_family="DejaVu Sans Mono, monospace", cls="heading" if i == 0 else "text-line")
    return c


def drawer(game_name: str):
    """The function that draws ``game_name``: its ``svg.py``'s ``draw``, or else ``text_picture``."""
    try:
        return picture_module(game_name).draw
    except PictureError:
        return text_picture


def has_picture(game_name: str) -> bool:
    try:
        picture_module(game_name)
        return True
    except PictureError:
        return False


def render(state, seat: int | None = None) -> str:
    """The SVG text of ``state``, from ``seat``'s view (None: everything); the text view where the game has no
    picture of its own."""
    n = state.game.num_players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise PictureError(f"seat {seat!r} is out of range 0..{n - 1}")
    return drawer(state.game.name)(state, seat).to_svg()


def to_png(svg_text: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG (through cairosvg: ``pip install kleos[pictures]`` and the system's libcairo)."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:
        raise PictureError(f"PNG needs cairosvg and libcairo (pip install 'kleos[pictures]'): {e}") from None
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)


def write(svg_text: str, path, scale: float = 1.0) -> None:
    """Write an SVG, or a PNG when ``path`` ends in .png."""
    path = Path(path)
    if path.suffix.lower() == ".png":
        path.write_bytes(to_png(svg_text, scale))
    elif path.suffix.lower() == ".svg":
        path.write_text(svg_text, encoding="utf-8")
    else:
        raise PictureError(f"{path}: a picture is written as .svg or .png")
