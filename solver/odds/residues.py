"""Exact big counts in machine integers: counting modulo a few primes, and the Chinese remainder
theorem to get the count back.

A count of deals can be far beyond 64 bits (about 2^105 on a 12-player forum deck), but sums
and products of counts are exact modulo any number. So a compiled or vectorised count keeps one
residue per prime, each in a machine integer, and the count is rebuilt at the end: it is the one
number below the primes' product with those residues, so the primes must multiply to more than
any count the programme can produce (`moduli_for` an upper bound on it).

The primes are below 2^31, so the product of two residues fits a signed 64-bit integer and a
multiply-add needs no 128-bit arithmetic (each prime adds 31 bits: four cover 2^123).
Inclusion-exclusion's kernels take primes below 2^50 (`WIDE`; card by card below 2^52,
`WIDER`), their products by a floating-point quotient: fewer primes, so fewer residues to carry
or passes to make (three cover 2^149; 2^155 below 2^52).

>>> moduli = moduli_for(10**20)
>>> len(moduli)
3
>>> crt([10**20 % p for p in moduli], moduli) == 10**20
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

TOP = 1 << 31
"""Every modulus is below this, so a product of two residues fits a signed 64-bit integer."""

WIDE = 1 << 50
"""Moduli below this leave a product of two residues (below 2^100) whose floating-point
quotient is off by at most one: inclusion-exclusion's kernels take them (fewer moduli)."""

WIDER = 1 << 52
"""Moduli below this leave a product of two residues (below 2^104) whose floating-point
quotient is off by at most two: inclusion-exclusion card by card takes them (`pins_kernel.mul`;
three cover the 45-card logs' 2^155 where below 2^50 took four)."""

_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23)
"""Miller-Rabin bases that decide primality exactly for every number below 3.8 * 10^18."""


def is_prime(n: int) -> bool:
    """Whether ``n`` (below 3.8 * 10^18) is prime: Miller-Rabin with the primes to 23 as
    bases."""
    if n < 2:
        return False
    for p in _WITNESSES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def _prime(index: int, top: int = TOP) -> int:
    """The ``index``-th largest prime below ``top`` (a power of two; 0: 2^31 - 1 below `TOP`)."""
    n = top - 1 if index == 0 else _prime(index - 1, top) - 2
    while not is_prime(n):
        n -= 2
    return n


def moduli_for(bound: int, top: int = TOP) -> tuple[int, ...]:
    """The fewest primes (the largest below ``top``, largest first) whose product exceeds
    ``bound``: enough to rebuild any count from 0 to ``bound`` from its residues."""
    moduli: list[int] = []
    product = 1
    while product <= bound:
        moduli.append(_prime(len(moduli), top))
        product *= moduli[-1]
    return tuple(moduli) if moduli else (_prime(0, top),)


def residues_of(value: int, moduli: Sequence[int]) -> tuple[int, ...]:
    """``value`` modulo each of ``moduli``."""
    return tuple(value % m for m in moduli)


def crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The one number from 0 to below ``prod(moduli)`` with these residues (the moduli pairwise
    coprime), by Garner's mixed-radix method."""
    return garner(moduli)(residues)


def garner(moduli: Sequence[int]) -> Callable[[Sequence[int]], int]:
    """`crt` modulo ``moduli``, for many numbers: the inverses worked out once."""
    steps = [math.prod(moduli[:d]) for d in range(len(moduli))]
    inverses = [pow(step, -1, m) for step, m in zip(steps, moduli, strict=True)]

    def number(residues: Sequence[int]) -> int:
        value = 0
        for r, m, step, inverse in zip(residues, moduli, steps, inverses, strict=True):
            # value + step * t is value modulo the moduli so far, and r modulo m
            value += step * ((int(r) - value) * inverse % m)
        return value

    return number

