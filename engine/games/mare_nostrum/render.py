"""Text view of a Mare Nostrum state from one seat: the map, the leadership tracks and holdings."""
from engine.games.mare_nostrum.state import _NAMES


def render(state, observer=None):
    j = state.to_json() if observer is None else state.observation(observer)
    emps = [e["empire"] for e in j["empires"]]
    tracks = state.track_values()
    lines = [f"Mare Nostrum, {j['players']} players, round {j['round']}, step {j['step']}, "
             f"to move: {emps[j['current']] if j['current'] >= 0 else ('chance' if j['current'] == -1 else 'over')}"]
    if j["winners"]:
        lines.append(f"WINNER: {', '.join(j['winners'])} ({j['reason']})")
    lines.append("Leadership (trade / culture / military):")
    for p, e in enumerate(j["empires"]):
        titles = ",".join(e["titles"]) or "-"
        lines.append(f"  {e['empire']:9s} {tracks[p][0]:2d} / {tracks[p][1]:2d} / {tracks[p][2]:2d}   titles: {titles}"
                     f"   cards: {', '.join(e['cards'])}")
    lines.append("Provinces:")
    units = {}
    for e in j["empires"]:
        for prov, n in e["legions"].items():
            units.setdefault(prov, []).append(f"{n}L {e['empire']}")
        for prov in e["fortresses"]:
            units.setdefault(prov, []).append(f"F {e['empire']}")
    for name, rec in j["provinces"].items():
        built = [s[0] + (f"[occ {s[2]}]" if s[2] else "") for s in rec["spaces"] if s[1]]
        circe = [s[0] + f"[circe {s[3]}]" for s in rec["spaces"] if s[3]]
        if not (rec["control"] or built or name in units):
            continue
        cap = f" captured by {rec['capture']['by']}" if rec["capture"] else ""
        lines.append(f"  {name:12s} {rec['control'] or '-':9s} {' '.join(built + circe) or '-'}"
                     f"  | {', '.join(units.get(name, [])) or 'no units'}{cap}")
    seas = {}
    for e in j["empires"]:
        for sea, n in e["triremes"].items():
            seas.setdefault(sea, []).append(f"{n}T {e['empire']}")
    if seas:
        lines.append("Seas: " + "; ".join(f"{s}: {', '.join(v)}" for s, v in seas.items()))
    row = [_NAMES["cards"][5 + c] for c in range(17) if (j["machine"]["row"] >> c) & 1]
    lines.append(f"Heroes & wonders on offer: {', '.join(row) or '-'} (+ Pyramids)")
    for e in j["empires"]:
        if observer is not None and e["empire"] != emps[observer]:
            hidden = e.get("rare_hidden", 0)
            extra = f", {hidden} face-down rare" if hidden else ""
        else:
            extra = ""
        res = ", ".join(f"{k} {v}" for k, v in e["resources"].items() if v)
        rare = ", ".join(e["rare"])
        lines.append(f"  {e['empire']:9s} holds: {res or '-'}{'; rare ' + rare if rare else ''}{extra}")
    return "\n".join(lines)
