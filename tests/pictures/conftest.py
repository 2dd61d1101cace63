"""Shared skips of the picture tests: PNG needs cairosvg and the system's libcairo."""
import pytest


@pytest.fixture
def png_tools():
    """Skip (with the reason) where cairosvg or libcairo is missing: cairosvg imports, but cairocffi raises
    OSError at import when the C library is absent, which importorskip would not catch."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as e:
        pytest.skip(f"PNG needs cairosvg (pip install 'kleos[pictures]') and libcairo (apt-get install libcairo2): {e}")
