"""Fixtures of the arena tests: how to run the `kleos` command and protocol players in child processes."""
import os
import subprocess
import sys

import pytest

import engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def child_env(monkeypatch):
    """Child processes (cmd: players, the kleos command) import this checkout, installed or not."""
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", ROOT + (os.pathsep + path if path else ""))
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    return dict(os.environ)


@pytest.fixture
def kleos(child_env, tmp_path):
    """Run `kleos ARGS...` (as `python -m arena.cli`) in tmp_path; returns the CompletedProcess."""
    def run(*args, input=None, timeout=120, check=True, raw_input=None):
        """``raw_input``: bytes for stdin, as they are (the output is still decoded, bad bytes replaced)."""
        if raw_input is not None:
            proc = subprocess.run([sys.executable, "-m", "arena.cli", *map(str, args)], input=raw_input,
                                  capture_output=True, cwd=tmp_path, env=child_env, timeout=timeout)
            proc.stdout = proc.stdout.decode("utf-8", "replace")
            proc.stderr = proc.stderr.decode("utf-8", "replace")
        else:
            proc = subprocess.run([sys.executable, "-m", "arena.cli", *map(str, args)], input=input, text=True,
                                  capture_output=True, cwd=tmp_path, env=child_env, timeout=timeout)
        if check and proc.returncode != 0:
            raise AssertionError(f"kleos {' '.join(map(str, args))} exited {proc.returncode}:\n"
                                 f"{proc.stdout}\n{proc.stderr}")
        return proc
    return run


@pytest.fixture
def player(child_env):
    """``player("--mode", "first", ...)``: a `cmd:` spec for the scripted protocol player of this folder."""
    def spec(*args) -> str:
        return f"cmd:{sys.executable} {os.path.join(HERE, 'scripted_player.py')} " + " ".join(map(str, args))
    return spec
