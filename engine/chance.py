"""Drawing chance outcomes outside the search loop (the referee, records, tools): one rule, used everywhere.

The C searchers draw with ``engine.core.sample_chance_outcome``, the same rule over the same outcome order.
"""


def pick_outcome(outcomes, u: float) -> int:
    """The outcome of ``[(outcome, probability), ...]`` that a uniform ``u`` in [0, 1) falls on, in list order."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if u < acc:
            return action
    return outcomes[-1][0]          # rounding: probabilities that sum to a hair under 1


def sample_outcome(outcomes, rng) -> int:
    """One outcome of ``[(outcome, probability), ...]`` drawn with ``rng`` (an ``engine.rng.RNG``)."""
    return pick_outcome(outcomes, rng.random())


# --- the referee's dice ---------------------------------------------------------------------------------------
# Every chance outcome of a refereed game is pick_outcome(outcomes, u_k) for the k-th chance event of the game, with
# u_k a keyed hash of (game seed, k) under a secret 64-bit salt: without the salt nothing about u_k can be learnt
# from the seed or from earlier outcomes (a keyed BLAKE2b, not a PRNG whose state the draws would give away); with
# it, anyone re-derives every outcome. Games that share seed and salt share their luck (the seat rotations of a
# duplicate block). docs/protocol.md, "How chance is derived and revealed".

def derive_seed(seed: int, *salt: int) -> int:
    """A 63-bit seed from ``seed`` and integers (splitmix-style), for independent streams."""
    x = seed & 0xFFFFFFFFFFFFFFFF
    for s in salt:
        x = (x ^ ((s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x & 0x7FFFFFFFFFFFFFFF


def new_salt() -> int:
    """A secret 64-bit salt from the operating system's random source."""
    import secrets
    return secrets.randbits(64)


def secret_key() -> bytes:
    """A run's secret key (32 bytes from the operating system) that its blocks' salts derive from."""
    import os
    return os.urandom(32)


PUBLIC_KEY = b"kleos public chance"     # no secret: for tests and experiments that replay a run from its seed


def public_salt(seed: int) -> int:
    """The salt of a game run without a secret (library calls, tests): anyone with the seed knows the dice."""
    return keyed_salt(PUBLIC_KEY, seed)


def keyed_salt(key: bytes, seed: int) -> int:
    """The 64-bit salt of the games of ``seed`` under a run's secret ``key`` (one salt a duplicate block)."""
    import hashlib
    digest = hashlib.blake2b(int(seed).to_bytes(16, "little", signed=True), key=key[:64], digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def chance_uniform(seed: int, salt: int, k: int) -> float:
    """u_k in [0, 1): the uniform of the k-th chance event of the game ``seed`` under ``salt``."""
    import hashlib
    digest = hashlib.blake2b(int(seed).to_bytes(16, "little", signed=True) + int(k).to_bytes(8, "little"),
                             key=int(salt).to_bytes(8, "little"), digest_size=8)
    return (int.from_bytes(digest.digest(), "little") >> 11) * (1.0 / (1 << 53))


class ChanceStream:
    """The referee's dice: the k-th chance event draws with ``chance_uniform(seed, salt, k)``; ``used`` rewinds
    (an undo brings the same dice again)."""

    def __init__(self, seed: int, salt: int):
        self.seed, self.salt = int(seed), int(salt)
        self.used = 0

    def draw(self, outcomes) -> int:
        u = chance_uniform(self.seed, self.salt, self.used)
        self.used += 1
        return pick_outcome(outcomes, u)
