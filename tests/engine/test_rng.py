"""The seeded generator: reproducible, in range, close to uniform."""

from hypothesis import given, strategies as st

from dicetable.engine import Rng
from dicetable.engine.rng import _scale, _signed, _unsigned, splitmix64, splitmix64_below, splitmix64_choices


def test_splitmix64_reference_values():
    # Reference outputs of SplitMix64 seeded with 0 (Vigna's published generator).
    state, a = splitmix64(0)
    state, b = splitmix64(state)
    assert a == 0xE220A8397B1DCDAF
    assert b == 0x6E789E6AA1B965F4


@given(seed=st.integers(-2**70, 2**70), n=st.integers(1, 10**6))
def test_randbelow_stays_in_range_and_repeats(seed, n):
    a, b = Rng(seed), Rng(seed)
    xs = [a.randbelow(n) for _ in range(20)]
    assert xs == [b.randbelow(n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)


def test_die_faces_are_close_to_uniform():
    rng = Rng(12345)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randbelow(6)] += 1
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_shuffle_is_a_permutation():
    rng = Rng(3)
    items = list(range(50))
    rng.shuffle(items)
    assert sorted(items) == list(range(50)) and items != list(range(50))


@given(state=st.integers(0, 2**64 - 1), items=st.lists(st.integers(), min_size=1, max_size=8),
       count=st.integers(0, 12))
def test_splitmix64_choices_is_splitmix64_then_multiply_shift(state, items, count):
    # The dice loop writes the generator out for speed; it must pick exactly what splitmix64 would.
    expected, s = [], state
    for _ in range(count):
        s, out = splitmix64(s)
        expected.append(items[(out * len(items)) >> 64])
    assert splitmix64_choices(state, items, count) == (s, expected)


@given(state=st.integers(0, 2**64 - 1), n=st.integers(1, 2**31 - 1))
def test_the_compiled_builds_halves_scale_exactly_like_the_multiply_shift(state, n):
    # _scale works on the i64 (two's complement) form of a 64-bit output, in 32-bit halves that never
    # overflow: its result must be (output * n) >> 64 of the unsigned value, for every output.
    assert _unsigned(_signed(state)) == state
    assert -2**63 <= _signed(state) < 2**63
    assert _scale(_signed(state), n) == (state * n) >> 64


@given(state=st.integers(0, 2**64 - 1), n=st.integers(1, 2**40))
def test_splitmix64_below_is_splitmix64_then_multiply_shift(state, n):
    after, out = splitmix64(state)
    assert splitmix64_below(state, n) == (after, (out * n) >> 64)


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(1, 2**40))
def test_rng_draws_are_splitmix64_then_multiply_shift_or_its_top_53_bits(seed, n):
    # Rng.randbelow and Rng.random write the generator out in the compiled build (no tuple made):
    # each must draw what splitmix64 gives (the reference above), scaled by multiply-shift, or its
    # output's top 53 bits over 2**53, and leave the same state behind.
    rng = Rng(seed)
    s = rng.state
    for _ in range(3):
        s, out = splitmix64(s)
        assert rng.randbelow(n) == (out * n) >> 64 and rng.state == s
        s, out = splitmix64(s)
        assert rng.random() == (out >> 11) / 2**53 and rng.state == s


def test_series_seeds_are_the_old_scheme_below_the_bound_and_always_game_seeds():
    from dicetable.engine import SEED_LIMIT, new_game, series_seed

    # the numbering the ladders and tournaments have used: seed * 1_000_003 + index
    assert [series_seed(1, i) for i in range(3)] == [1_000_003, 1_000_004, 1_000_005]
    assert series_seed(0, 7) == 7
    top = SEED_LIMIT - 1
    seeds = [series_seed(top, i) for i in range(50)]
    assert all(0 <= s < SEED_LIMIT for s in seeds) and len(set(seeds)) == 50
    assert seeds[0] == (top * 1_000_003) % SEED_LIMIT
    new_game("kingdom-of-dice", 2, seed=seeds[-1])  # a game takes every one


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(1, 2**40))
def test_a_game_draws_what_splitmix64_gives_and_saves_its_state_unsigned(seed, n):
    # The kernel holds its state as a native i64 in the compiled build (negative past 2**63): what it
    # draws, saves ("rng") and shows (chance_mark) must still be SplitMix64's unsigned state, the
    # reference above, across draws of every size and through a clone.
    from dicetable.engine import new_game

    state = new_game("kingdom-of-dice", 2, seed=seed)
    s = state.to_dict(log=False)["rng"]
    assert 0 <= s < 2**64
    for bound in (n, 6, 2**33):
        s, out = splitmix64(s)
        assert state.randbelow(bound) == (out * bound) >> 64
        assert state.to_dict(log=False)["rng"] == s and state.chance_mark[0] == s
        assert state.clone().to_dict(log=False)["rng"] == s


def test_a_saved_rng_outside_64_bits_is_refused():
    import pytest

    from dicetable.engine import SaveFormatError, new_game

    state = new_game("kingdom-of-dice", 2, seed=7)
    d = state.to_dict()
    for bad in (-1, 2**64):
        d["rng"] = bad
        with pytest.raises(SaveFormatError, match="rng must be an integer 0..2\\*\\*64-1"):
            type(state).from_dict(d)
    d["rng"] = 2**64 - 1  # the largest state loads and saves unchanged
    assert type(state).from_dict(d).to_dict()["rng"] == 2**64 - 1
