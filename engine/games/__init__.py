"""One package a game; each defines ``GAME = engine.registry.GameSpec(...)`` in its ``__init__``."""
