"""Bridges between Kleos and other game-AI frameworks (optional extras)."""
