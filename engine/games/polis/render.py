"""A text view of a Polis position from one seat: round and turn, both player boards, the map by area,
poleis, market, projects and any battle (the opponent's hand shown as a count)."""
from __future__ import annotations

from engine.games.polis.codec import observation, to_json


def render(state, observer=None) -> str:
    j = to_json(state) if observer is None else observation(state, observer)
    out = [f"POLIS  round {j['round']}  phase {j['phase']}  to move: {j['active']}"
           + (f"  RESULT: {j['winner']}" if j["winner"] else "")]
    for name, pl in j["players"].items():
        me = " (you)" if observer is not None and j.get("you") == name else ""
        passed = " passed" if j["passed"][0 if name == "athens" else 1] else ""
        out.append(f"  {name.upper():7s}{me} prestige {pl['prestige']:2d} | iron {pl['iron']} wood {pl['wood']} "
                   f"wine {pl['wine']} silver {pl['silver']} wheat {pl['wheat']} | cubes {pl['cubes']} discs "
                   f"{pl['discs']} merchants {pl['merchants']}+{pl['merchants_on_port']} on port | proxenos "
                   f"{pl['proxenos']}{passed}  score {state.score(0 if name == 'athens' else 1)}")
    out.append("  Regions (Athens/Sparta hoplites):")
    row = []
    for name, r in j["regions"].items():
        trib = {"athens": " T(A)", "sparta": " T(S)"}.get(r["tribute"], "")
        row.append(f"{name} {r['athens']}/{r['sparta']}{trib}")
    out.append("    " + ", ".join(row))
    out.append("  Seas (Athens/Sparta galleys): " + ", ".join(f"{n} {s['athens']}/{s['sparta']}"
                                                           for n, s in j["seas"].items()))
    out.append("  Poleis:")
    row = []
    for name, p in j["poleis"].items():
        owner = {"athens": "A", "sparta": "S"}.get(p["owner"], "-")
        sg = "".join(f" siege{k[0].upper()}{v}" for k, v in p["siege"].items() if v)
        row.append(f"{name}[{owner}{p['pop'] or ''}{sg}]")
    for i in range(0, len(row), 6):
        out.append("    " + " ".join(row[i:i + 6]))
    pr = j["projects"]
    out.append(f"  Projects: display {', '.join(pr['display']) or '-'}; started "
               f"{pr['started'] or '-'}; completed {pr['completed'] or '-'}; {len(pr['pile'])} face down")
    m = j["market"]
    cells = " ".join(f"{c['market']}{c['rate']}" + ("#" if c["blocked"] else "")
                     + {"athens": "(A)", "sparta": "(S)"}.get(c["merchant"], "") for c in m["cells"])
    out.append(f"  Market prices (column) {m['prices']}; cells {cells}")
    b = j["battle"]
    if b:
        hands = ", ".join(f"{k}: {v if isinstance(v, int) else ' '.join(v) or '-'}" for k, v in b["hands"].items())
        out.append(f"  BATTLE in {b['area']}: attacker {b['attacker']}; on the table {b['played'] or '-'}; "
                   f"hands {hands}; deck {b['deck'] if isinstance(b['deck'], int) else len(b['deck'])}")
    return "\n".join(out)
