"""List the cdef (C-level) functions whose generated C touches the Python API.

Run after a build (`python setup.py build_ext --inplace`) from the project root:

    python scripts/check_hot_c.py

The hot paths (legal moves, apply, copy, determinize, playouts, the search loop) should not appear, apart from
object allocation in c_clone and reference counting of the working state once per search iteration.
"""
import glob
import re

PY_API = re.compile(r"\b(Py[A-Z]\w*|__Pyx_\w*)\s*\(")
PROFILING = {"__Pyx_TraceCall", "__Pyx_RefNannySetupContext", "__Pyx_RefNannyFinishContext", "__Pyx_TraceReturn",
             "__Pyx_PyErr_Occurred"}
FUNCTION = re.compile(r"\nstatic [^\n;]*?(__pyx_f_\w+)\(([^)]*)\) \{\n(.*?)\n\}\n", re.S)


def main():
    for cfile in sorted(glob.glob("engine/**/*.c", recursive=True) + glob.glob("search/**/*.c", recursive=True)):
        source = open(cfile, encoding="utf-8").read()
        functions = FUNCTION.findall(source)
        touching = [(name, sorted(set(PY_API.findall(body)) - PROFILING)) for name, _, body in functions]
        touching = [(name, calls) for name, calls in touching if calls]
        print(f"{cfile}: {len(functions)} cdef functions, {len(touching)} touch the Python API")
        for name, calls in touching:
            print(f"    {name}: {', '.join(calls[:5])}")


if __name__ == "__main__":
    main()
