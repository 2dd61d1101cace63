"""engine.rng: seeded, reproducible, splittable, unbiased."""
import pytest

from engine.rng import RNG


def test_same_seed_same_stream():
    a, b = RNG(2026), RNG(2026)
    assert [a.next_u64() for _ in range(100)] == [b.next_u64() for _ in range(100)]


def test_different_seeds_differ():
    assert [RNG(1).next_u64() for _ in range(4)] != [RNG(2).next_u64() for _ in range(4)]


def test_below_is_in_range_and_roughly_uniform():
    rng = RNG(3)
    n, draws = 7, 70_000
    counts = [0] * n
    for _ in range(draws):
        x = rng.below(n)
        assert 0 <= x < n
        counts[x] += 1
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 30, f"chi-square {chi2:.1f} for 6 degrees of freedom: not uniform"   # p < 1e-4


def test_random_is_in_unit_interval():
    rng = RNG(4)
    xs = [rng.random() for _ in range(10_000)]
    assert 0.0 <= min(xs) and max(xs) < 1.0
    assert 0.45 < sum(xs) / len(xs) < 0.55


def test_split_gives_an_independent_reproducible_child():
    parent = RNG(5)
    child = parent.split()
    again = RNG(5).split()
    assert [child.next_u64() for _ in range(5)] == [again.next_u64() for _ in range(5)]
    assert child.getstate() != parent.getstate()


def test_state_save_and_restore():
    rng = RNG(6)
    rng.next_u64()
    saved = rng.getstate()
    first = [rng.below(100) for _ in range(10)]
    rng.setstate(saved)
    assert [rng.below(100) for _ in range(10)] == first


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="n >= 1"):
        RNG(1).below(0)
    with pytest.raises(TypeError, match="seed must be an int"):
        RNG("seed")
    with pytest.raises(ValueError, match="empty"):
        RNG(1).choice([])
