"""The `kleos` bot in the arena's commands: `kleos tournament` and `kleos strength` field it like any bot spec
(tests/bots/test_kleos_bot.py tests the bot itself)."""


def test_tournament_and_strength_field_the_kleos_bot(kleos):
    out = kleos("tournament", "goofspiel", "-o", "cards=4", "--bot", "kleos:iterations=30", "--bot", "random",
                "-n", "2", "-j", "1", "--out", "t.jsonl")
    assert "kleos:iterations=30" in out.stdout
    out = kleos("strength", "goofspiel", "-o", "cards=4", "--games", "2", "-j", "1",
                "--pair", "kleos:iterations=30", "random", "--out", "s.jsonl")
    assert "`kleos:iterations=30` | `random` | 2 |" in out.stdout, out.stdout
