"""Build every Cython module of Kleos.

Every ``*.pyx`` below the top-level packages is compiled, so a new game or searcher needs no edit here.
``KLEOS_DEBUG=1`` builds with bounds and wrap-around checks on (for tests hunting memory bugs); the default is
the fast build: ``-O3``, checks off.
"""
import os
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
PACKAGES = ("engine", "search", "bots", "arena", "interop")
DEBUG = os.environ.get("KLEOS_DEBUG", "") not in ("", "0")


def find_extensions():
    extensions = []
    for package in PACKAGES:
        for pyx in sorted((ROOT / package).rglob("*.pyx")):
            rel = pyx.relative_to(ROOT)
            module = ".".join(rel.with_suffix("").parts)
            extensions.append(
                Extension(
                    module,
                    [str(rel)],
                    include_dirs=[numpy.get_include()],
                    extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
                    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                                   ("KLEOS_DEBUG_BUILD", "1" if DEBUG else "0")],
                )
            )
    return extensions


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

setup(
    ext_modules=cythonize(
        find_extensions(),
        compiler_directives=directives,
        nthreads=0 if sys.platform == "win32" else os.cpu_count() or 1,
        quiet=True,
    ),
)
