"""Every shell command that README.md and docs/*.md show runs, with its budgets shrunk to a CI size.

A documented command that stops working (a renamed option, a removed file, a changed command) fails here. The
commands of one document run in order in one temporary folder (holding a copy of docs/ and scripts/), so a
command may read what an earlier one of the same document wrote. ``kleos`` runs as ``python -m arena.cli`` (the same
entry point). Pytest commands are checked by collecting, not running, the tests they name (the suite itself is
running). Commands marked ``long`` run only with ``KLEOS_DOCS_LONG=1``; how marks work: tests/doccheck/doc_commands.py.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from doccheck.doc_commands import _is_command, collect, inline_commands, is_environment_step, shrink, steps

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = collect(ROOT)
LONG = os.environ.get("KLEOS_DOCS_LONG", "") not in ("", "0")
TIMEOUT = 600 if LONG else 180


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory):
    """One folder a document, with copies of docs/ and scripts/ (commands write beside what they read)."""
    made: dict[str, Path] = {}

    def get(doc: str) -> Path:
        if doc not in made:
            folder = tmp_path_factory.mktemp(Path(doc).stem)
            for part in ("docs", "scripts"):
                if (ROOT / part).is_dir():
                    shutil.copytree(ROOT / part, folder / part)
            made[doc] = folder
        return made[doc]
    return get


def _extras() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["project"].get("optional-dependencies", {}))


def _check_install(argv: list[str]):
    """``pip install -e ".[x,y]"``: the extras it names exist (the environment itself is the test run's)."""
    for word in argv:
        if "[" in word:
            named = set(word[word.index("[") + 1:word.index("]")].split(","))
            assert named <= _extras(), f"pip installs unknown extras {sorted(named - _extras())}"


def _environment() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    env["COLUMNS"] = "100"
    return env


# what a command needs beyond the core install: (pattern in the command, module, the extra that brings it)
NEEDS = ((r"--executor ray", "ray", "ray"), (r"openspiel:|\bos-(ismcts|mcts|random|cfr)\b|interop", "pyspiel", "openspiel"),
         (r"\.png\b", "cairosvg", "pictures"))


def _skip_without_extras(text: str):
    import importlib.util
    import re
    for pattern, module, extra in NEEDS:
        if re.search(pattern, text) and importlib.util.find_spec(module) is None:
            pytest.skip(f'needs the optional extra {extra} (pip install -e ".[{extra}]")')


@pytest.mark.parametrize("command", COMMANDS, ids=[c.id for c in COMMANDS])
def test_documented_command_runs(command, workdirs):
    _skip_without_extras(command.text)
    if command.mark == "skip":
        pytest.skip(f"marked in the doc: {command.reason or 'not runnable here'}")
    if command.mark == "long" and not LONG:
        pytest.skip("marked long in the doc: run with KLEOS_DOCS_LONG=1")
    for argv in steps(command.text):
        env = _environment()
        while argv and "=" in argv[0] and argv[0].split("=")[0].isupper():
            key, value = argv.pop(0).split("=", 1)
            env[key] = value
        if is_environment_step(argv):
            _check_install(argv)
            continue
        cwd = workdirs(command.doc)
        if argv[:3] in (["python", "-m", "pytest"], ["python3", "-m", "pytest"]):
            argv = [sys.executable, "-m", "pytest", *argv[3:], "--collect-only", "-q", "-p", "no:cacheprovider"]
            cwd = ROOT
        elif argv[:2] in (["python", "setup.py"], ["python3", "setup.py"]):
            if not LONG:
                pytest.skip("a build in place: run with KLEOS_DOCS_LONG=1 (it rebuilds a copy of the repository)")
            cwd = workdirs("build-copy")
            if not (cwd / "setup.py").exists():
                shutil.copytree(ROOT, cwd, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".venv", ".git", "*.so"))
            argv = [sys.executable, *argv[1:]]
            env["PYTHONPATH"] = str(cwd)
        else:
            if argv[0] == "kleos":
                argv = [sys.executable, "-m", "arena.cli", *argv[1:]]
            elif argv[0] in ("python", "python3"):
                argv = [sys.executable, *argv[1:]]
            argv = shrink(argv)
        proc = subprocess.run(argv, cwd=cwd, env=env, input="quit\n", text=True, capture_output=True,
                              timeout=TIMEOUT)
        assert proc.returncode == 0, (f"{command.id}: `{command.text}` exited {proc.returncode} "
                                      f"(ran: {' '.join(argv)})\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        assert "Traceback (most recent call last)" not in proc.stderr, f"{command.id}: a traceback\n{proc.stderr}"


def test_the_docs_show_commands():
    """The collector finds the README's two commands and the docs' commands (it cannot silently find none)."""
    readme = [c for c in COMMANDS if c.doc == "README.md"]
    assert len(readme) >= 2 and any("pytest" in c.text for c in readme)
    assert len({c.doc for c in COMMANDS}) >= 3


INLINE = inline_commands(ROOT)


def _check_kleos(argv: list[str], where: str):
    """``kleos SUB ... --opt``: the subcommand exists and takes every option named."""
    import click

    from arena.cli import main
    command, i = main, 1
    while isinstance(command, click.Group) and i < len(argv) and not argv[i].startswith("-"):
        if _is_placeholder(argv[i]):
            return
        assert argv[i] in command.commands, f"{where}: `kleos {argv[i]}` is no kleos command"
        command, i = command.commands[argv[i]], i + 1
    names = {name for p in command.params for name in (*p.opts, *p.secondary_opts)} | {"--help", "-h"}
    for word in argv[i:]:
        if word.startswith("-") and not word[1:2].isdigit():
            option = word.split("=", 1)[0]
            assert option in names, f"{where}: `{' '.join(argv[:i])}` has no option {option}"


def _is_placeholder(word: str) -> bool:
    return word.startswith("<") or word.startswith("[") or word.isupper() or word == "..."


@pytest.mark.parametrize("command", INLINE, ids=[c.id for c in INLINE])
def test_documented_inline_command_exists(command):
    import importlib.util
    for argv in steps(command.text.replace("|", "&&")):
        while argv and "=" in argv[0] and argv[0].split("=")[0].isupper():
            argv = argv[1:]
        if not argv or is_environment_step(argv):
            if argv:
                _check_install(argv)
            continue
        if argv[0] == "kleos":
            _check_kleos(argv, command.id)
        elif argv[0] in ("python", "python3") and len(argv) > 2 and argv[1] == "-m":
            if argv[2] not in ("pytest", "venv", "pip"):
                assert importlib.util.find_spec(argv[2]) is not None, f"{command.id}: no module {argv[2]}"
        elif argv[0] in ("python", "python3") and len(argv) > 1 and argv[1].endswith(".py"):
            assert (ROOT / argv[1]).is_file(), f"{command.id}: no file {argv[1]}"
