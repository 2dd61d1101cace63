"""The replay page in a real browser: headless Chromium driven over the DevTools protocol, stepped with real key
events (Input.dispatchKeyEvent), checked for the board changing, the move list and the absence of script errors.

Needs a Chromium (``chromium``, ``chromium-browser`` or ``google-chrome`` on PATH, or ``KLEOS_CHROMIUM``) and the
``websocket-client`` package (in the ``test`` extra); skipped with the reason when either is missing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.request

import pytest

from arena.viewer import build_viewer
from engine.records import play_random_game
from engine.registry import load_game

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


def _chromium() -> str | None:
    for name in (os.environ.get("KLEOS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class Browser:
    """One headless Chromium with one page, spoken to over its DevTools websocket."""

    def __init__(self, binary: str, profile, url: str):
        import websocket
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "--window-size=1400,900", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 30
        while time.time() < deadline and port is None:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                break
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            port = int(found.group(1)) if found else None
        if port is None:
            self.close()
            pytest.skip("chromium did not open its DevTools port")
        pages = []
        while time.time() < deadline and not pages:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json") as reply:
                pages = [t for t in json.load(reply) if t.get("type") == "page"]
            time.sleep(0.1)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0
        self.events: list[dict] = []
        self.call("Runtime.enable")
        self.call("Log.enable")
        self.call("Page.enable")
        self.call("Page.reload")          # so that errors while the page loads are seen too
        self.wait_for("document.readyState === 'complete' && !!document.querySelector('#board svg')")

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 20):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression}")

    def key(self, name: str):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=name, windowsVirtualKeyCode=KEYS[name],
                      nativeVirtualKeyCode=KEYS[name])

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append(json.dumps(params.get("exceptionDetails", {}))[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(json.dumps(params.get("args", []))[:500])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(params["entry"].get("text", "")[:500])
        return out

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def browser_page(tmp_path):
    binary = _chromium()
    if binary is None:
        pytest.skip("no Chromium on PATH (apt-get install chromium, or set KLEOS_CHROMIUM)")
    pytest.importorskip("websocket", reason="driving Chromium needs websocket-client (pip install 'kleos[test]')")
    record = play_random_game(load_game("goofspiel", players=2, cards=5), 3)
    record.evals = [{"iterations": 1000 + i, "value": 0.25} if p >= 0 else None
                    for i, p in enumerate(record.players)]
    page = tmp_path / "game.html"
    page.write_text(build_viewer(record), encoding="utf-8")
    browser = Browser(binary, tmp_path / "profile", page.as_uri())
    yield browser, record
    browser.close()


def test_the_replay_page_steps_through_the_game_with_the_keyboard(browser_page):
    b, record = browser_page
    plies = len(record.actions)
    board = "document.querySelector('#board').innerHTML"
    assert b.evaluate("document.querySelector('#ply').textContent") == f"ply 0 / {plies}"
    assert b.evaluate("document.querySelectorAll('#moves li').length") == plies
    assert b.evaluate("document.querySelector('#moves li .mv').textContent") == record.moves[0]
    seen = [b.evaluate(board)]
    for step in range(1, 4):
        b.key("ArrowRight")
        assert b.evaluate("document.querySelector('#ply').textContent") == f"ply {step} / {plies}"
        assert b.evaluate("document.querySelector('#moves li.current').dataset.ply") == str(step)
        seen.append(b.evaluate(board))
    assert len(set(seen)) == len(seen), "the board did not change from ply to ply"
    b.key("ArrowLeft")
    assert b.evaluate(board) == seen[2]
    b.key("End")
    assert b.evaluate("document.querySelector('#ply').textContent") == f"ply {plies} / {plies}"
    assert "game is over" in b.evaluate(board)
    assert b.evaluate("location.hash") == f"#ply={plies}&view=0"          # a link to this position
    b.key("Home")
    assert b.evaluate(board) == seen[0]
    # the clock and the statistics of the move just played
    b.key("ArrowRight")
    b.key("ArrowRight")
    mover = record.players[1]
    text = b.evaluate("document.querySelector('#stats').textContent")
    assert f"move 2 by P{mover}" in text and "iterations" in text and "1,001" in text
    assert "s" in b.evaluate("document.querySelector('#clocktable').textContent")
    # the view switch: seat 1 sees seat 0's bids hidden; "all" is offered since the game is over
    options = b.evaluate("[...document.querySelectorAll('#view option')].map(o => o.value)")
    assert options == ["0", "1", "all"]
    b.evaluate("const s = document.querySelector('#view'); s.value = '1'; s.dispatchEvent(new Event('change'))")
    moves = b.evaluate("[...document.querySelectorAll('#moves li .mv')].map(li => li.textContent)")
    assert "(hidden)" in moves and moves[0] == record.moves[0]
    assert b.evaluate("document.querySelector('#board svg .heading:nth-of-type(2)') !== null")
    assert "view of P1" in b.evaluate(board)
    assert b.errors() == [], b.errors()
