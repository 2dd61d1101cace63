"""A small external player of the Kleos text protocol, standard library only (as a third-party tool would be).

It logs every line it receives (--log), answers the session commands, and at `go` plays the first or a random
legal move from the `legal=` list. Misbehaviours for the referee's policies: --mode garbage (prints noise and
never answers go), hang (never answers go), mute (never answers anything), crash (exits at its --after-th go), illegal (answers go with a move
that does not exist), resign.
"""
import argparse
import json
import random
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--log", default=None)
parser.add_argument("--mode", default="first",
                    choices=["first", "random", "garbage", "hang", "crash", "illegal", "resign", "index", "mute"])
parser.add_argument("--after", type=int, default=0, help="misbehave from this go on (0: from the first)")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
log = open(args.log, "a", encoding="utf-8") if args.log else None
rng = random.Random(args.seed)
gos = 0


def reply(cid, payload=""):
    tag = "=" if cid is None else f"={cid}"
    sys.stdout.write(f"{tag} {payload}".rstrip() + "\n\n")
    sys.stdout.flush()


for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    text = line.strip()
    if not text:
        continue
    name, _, rest = text.partition(" ")
    cid = None
    if name.isdigit():
        cid = int(name)
        name, _, rest = rest.partition(" ")
    if args.mode == "mute":             # never says a word
        continue
    if name == "protocol_version":
        reply(cid, "1")
    elif name == "isready":
        reply(cid, "readyok")
    elif name == "quit":
        reply(cid)
        break
    elif name == "go":
        gos += 1
        legal = json.loads(rest.split("legal=", 1)[1])
        misbehave = gos > args.after
        if misbehave and args.mode == "crash":
            sys.exit(3)
        if misbehave and args.mode == "hang":
            continue
        if misbehave and args.mode == "garbage":
            for _ in range(5):
                print("lorem ipsum, not a reply", flush=True)
            continue
        sys.stdout.write("info note=thinking\n")
        if misbehave and args.mode == "illegal":
            reply(cid, "no-such-move")
        elif misbehave and args.mode == "resign":
            reply(cid, "resign")
        elif args.mode == "index":
            reply(cid, f"#{len(legal) - 1}")
        elif args.mode == "random":
            reply(cid, rng.choice(legal))
        else:
            reply(cid, legal[0])
    else:                               # newgame, obs, event, gameover ...: acknowledged
        reply(cid)
