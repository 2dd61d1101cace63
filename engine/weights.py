"""A game's evaluate() weights kept as data (its data/evaluate.json): search heuristics, not rules, each marked
ASSUMED (or fitted, with how), and checked when the game loads. A game names its weights; this reads and checks
them, so a variant can be tried without a rebuild and a bad file is refused naming the weight."""
from __future__ import annotations

import json
import math
from pathlib import Path

LIMIT = 100.0               # no weight of a position score needs more; a larger one is a typo


def check_weights(doc, names, positive=("scale",), file: str = "evaluate.json") -> dict:
    """``doc`` (``{name: {"value": number, "status": text}}``, ``_``-keys are comments) checked: each of ``names`` a
    finite number in [0, LIMIT], those in ``positive`` above 0, no other name; returns ``{name: value}``."""
    if not isinstance(doc, dict):
        raise ValueError(f"{file}: must be a JSON object of weights, got {type(doc).__name__}")
    out = {}
    for name in names:
        entry = doc.get(name)
        value = entry.get("value") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0.0 <= value <= LIMIT:
            raise ValueError(f"{file}: {name} must be an entry whose value is a number in [0, {LIMIT:g}], "
                             f"got {entry!r}")
        out[name] = float(value)
    for name in positive:
        if out[name] <= 0.0:
            raise ValueError(f"{file}: {name} must be above 0")
    unknown = sorted(k for k in doc if not str(k).startswith("_") and k not in names)
    if unknown:
        raise ValueError(f"{file}: unknown weight(s) {', '.join(map(str, unknown))}; known: {', '.join(names)}")
    return out


def load_weights(path, names, positive=("scale",)) -> dict:
    """The checked weights of the file ``path`` (see check_weights); a file that is not JSON is refused by name."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path.name}: cannot be read as JSON ({e})") from None
    return check_weights(doc, names, positive, file=path.name)
