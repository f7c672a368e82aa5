"""Counting modulo primes (`solver.odds.residues`): the primes are primes, enough of them for
the bound, and the Chinese remainder theorem gives every count back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from solver.odds.residues import TOP, WIDE, crt, is_prime, moduli_for, residues_of


def trial_division(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def test_primality_agrees_with_trial_division() -> None:
    assert [n for n in range(200) if is_prime(n)] == [n for n in range(200) if trial_division(n)]
    near_top = range(TOP - 400, TOP)
    assert [n for n in near_top if is_prime(n)] == [n for n in near_top if trial_division(n)]


def test_the_moduli_are_the_largest_primes_below_the_top() -> None:
    moduli = moduli_for(1 << 300)
    below = [n for n in range(TOP - 1, TOP - 2000, -1) if trial_division(n)]
    assert list(moduli[: len(below)]) == below[: len(moduli)]
    assert all(m < TOP for m in moduli) and len(set(moduli)) == len(moduli)


def test_the_wide_moduli_are_the_largest_primes_below_2_to_the_50() -> None:
    """The primes just below 2^50 are 2^50 - 27, - 35, - 51, - 71, - 113 (published tables of
    primes just less than a power of two); no number between them is prime."""
    assert moduli_for(1 << 240, WIDE) == tuple(WIDE - k for k in (27, 35, 51, 71, 113))
    assert not any(is_prime(n) for n in range(WIDE - 112, WIDE) if WIDE - n not in (27, 35, 51,
                                                                                   71))


@given(st.integers(min_value=0, max_value=1 << 400))
def test_the_fewest_moduli_that_exceed_the_bound(bound: int) -> None:
    moduli = moduli_for(bound)
    product = 1
    for m in moduli:
        product *= m
    assert product > bound
    assert product // moduli[-1] <= bound or len(moduli) == 1


@given(st.integers(min_value=0, max_value=1 << 400), st.data())
def test_every_count_up_to_the_bound_comes_back(bound: int, data: st.DataObject) -> None:
    value = data.draw(st.integers(min_value=0, max_value=bound))
    moduli = moduli_for(bound)
    assert crt(residues_of(value, moduli), moduli) == value


def test_sums_and_products_stay_exact_modulo_the_primes() -> None:
    a, b, c = 3**70, 7**40 + 11, 2**90 - 1
    moduli = moduli_for(a * b + c)
    mixed = [(x * y + z) % m for x, y, z, m in zip(residues_of(a, moduli), residues_of(b, moduli),
                                                   residues_of(c, moduli), moduli, strict=True)]
    assert crt(mixed, moduli) == a * b + c
