"""Find the shell commands that README.md and docs/*.md show, and shrink their budgets so CI can run them all.

A command is a line of a code block (fenced, or indented four spaces) that starts with a program a reader would
type: ``kleos``, ``python``, ``python3``, ``pip``, or ``NAME=value`` before one of them; a line ending in ``\\``
continues on the next. Templates (``<game>``, ``[GAME]...``, ``...``) are syntax, not commands, and are left out.

An HTML comment before a block says how to treat it:

- ``<!-- docs-test: skip REASON -->``: not run (an external program the reader brings, say); the reason is shown;
- ``<!-- docs-test: long -->``: run only when ``KLEOS_DOCS_LONG=1`` (it is too long for CI even when shrunk).

Environment steps (``python3 -m venv``, ``. .venv/bin/activate``, ``pip install``) are not re-run: the test run
already stands in such an environment; the extras they name are checked to exist instead.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

PROGRAMS = ("kleos", "python", "python3", "pip")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
_MARK = re.compile(r"<!--\s*docs-test:\s*(skip|long)\b\s*(.*?)\s*-->")
_TEMPLATE = re.compile(r"<[a-zA-Z_ -]+>|\[[A-Z_]+\]|\.\.\.|\bFILE\b|\bGAME\b")


@dataclass
class DocCommand:
    doc: str            # path relative to the repository
    line: int           # 1-based line of the command's first line
    text: str           # the command as written (continuations joined)
    mark: str = ""      # "", "skip" or "long"
    reason: str = ""

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def _is_command(line: str) -> bool:
    words = line.split()
    while words and _ENV.match(words[0]):
        words = words[1:]
    return bool(words) and (words[0] in PROGRAMS or words[0] == ".")


def extract(path: Path, root: Path) -> list[DocCommand]:
    """Every command of one markdown file, with the mark of the comment just before its block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[DocCommand] = []
    fenced = indented = False
    pending = active = ("", "")
    i = 0
    while i < len(lines):
        raw = lines[i]
        m = _MARK.search(raw)
        if m and not fenced:
            pending = (m.group(1), m.group(2))
            i += 1
            continue
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            # a fence tagged text, python, json, ... holds no shell commands
            tag = raw.strip()[3:].strip()
            active, pending = ((("skip", f"a {tag} block") if tag not in ("", "sh", "bash", "shell", "console")
                               else pending), ("", "")) if fenced else (("", ""), pending)
            i += 1
            continue
        if not fenced:
            starts = raw.startswith("    ") and not indented and (i == 0 or not lines[i - 1].strip())
            if starts:
                indented, active, pending = True, pending, ("", "")
            elif indented and raw.strip() and not raw.startswith("    "):
                indented, active = False, ("", "")
            elif not indented and raw.strip():
                pending = ("", "")          # a mark belongs to the block right after it
        body = raw.strip()
        if body.startswith("$ "):
            body = body[2:]
        if (fenced or indented) and _is_command(body) and not (active[0] == "skip" and active[1].startswith("a ")):
            start = i
            while body.endswith("\\") and i + 1 < len(lines):
                i += 1
                body = body[:-1].rstrip() + " " + lines[i].strip()
            if not _TEMPLATE.search(body):
                out.append(DocCommand(str(path.relative_to(root)), start + 1, body, *active))
        i += 1
    return out


def documents(root: Path) -> list[Path]:
    """README.md, docs/*.md and the games' coverage pages docs/rules/*.md (the specs in docs/rules/spec/ hold no
    commands of ours)."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "docs" / "rules").glob("*.md"))]


def collect(root: Path) -> list[DocCommand]:
    docs = documents(root)
    return [c for d in docs for c in extract(d, root)]


# --- shrinking ---------------------------------------------------------------------------------------------------
_SHRINK_OPTIONS = {          # option -> the value CI runs it with (never more than the documented one)
    "--games": 2, "-n": 2, "--seconds": 0.1, "--repeats": 1, "-j": 1, "--jobs": 1, "--processes": 1,
    "--max-games": 16, "--bootstrap": 20, "--movetime": 0.05, "--plies": 20,
}
_SHRINK_SPEC = {"iterations": 20, "time": 0.02}


def _smaller(old: str, new) -> str:
    try:
        return str(min(float(old), float(new))).removesuffix(".0") if "." not in old else str(min(float(old), new))
    except ValueError:
        return old


def shrink(argv: list[str]) -> list[str]:
    """The same command with every budget cut to a CI size: game counts, search budgets, times, processes."""
    out = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in _SHRINK_OPTIONS and i + 1 < len(argv):
            out += [word, _smaller(argv[i + 1], _SHRINK_OPTIONS[word])]
            i += 2
            continue
        for key, value in _SHRINK_SPEC.items():
            word = re.sub(rf"\b{key}=([0-9.]+)", lambda m, v=value: f"{key}={_smaller(m.group(1), v)}", word)
        out.append(word)
        i += 1
    return out


def steps(text: str) -> list[list[str]]:
    """A command line split at ``&&`` into argument lists (no other shell syntax is used in the docs)."""
    return [shlex.split(part) for part in text.split("&&")]


def is_environment_step(argv: list[str]) -> bool:
    return (argv[:3] in (["python3", "-m", "venv"], ["python", "-m", "venv"]) or argv[:1] == ["."]
            or argv[:2] == ["pip", "install"])


# --- commands named in the prose -----------------------------------------------------------------------------------
_SPAN = re.compile(r"`([^`\n]+)`")


def inline_commands(root: Path) -> list[DocCommand]:
    """Commands quoted inline in the text (``kleos games``, ``python -m search.bench --help``): these are checked
    for existence (the command, its subcommand, every option it names), not run."""
    out = []
    for doc in documents(root):
        fenced = False
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if fenced or line.startswith("    "):
                continue
            for span in _SPAN.findall(line):
                if _is_command(span.strip()) and not span.strip().startswith("."):
                    out.append(DocCommand(str(doc.relative_to(root)), n, span.strip()))
    return out
