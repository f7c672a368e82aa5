"""Interchangeable players, counted as one.

Players who may hold exactly the same open cards and take part in no refutation are
interchangeable: whichever cards the group holds as a whole, they split among its members in
``C! / (c1! c2! ...)`` ways (``C`` the group's places, ``c_i`` each member's), whatever the cards.
So the programme deals to one owner with all the group's places, the count is multiplied by that
multinomial, and a card the group holds is each member's with chance ``c_i / C``. Early in a
many-player game (the forum variant: 12 players, few of them asked yet) this takes the hand-size
state of the programme from every player's room to the room of the few players the log tells
apart.

>>> merged = merge([3, 3, 2], {"Rope": frozenset({0, 1, 2})}, [((0, 3), (1, 3))])
>>> merged[0], merged[2]
([6, 0, 2], 20)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .setup import Tally

Group = tuple[tuple[int, int], ...]
"""(member, places) of interchangeable players; the first member stands for the group."""


def interchangeable(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Iterable[Tally],
    players: Iterable[int],
) -> list[Group]:
    """Groups of two or more players with the same possible open cards and no refutation."""
    involved = {o for t in tallies for o in t.holders}
    alike: dict[frozenset[str], list[int]] = defaultdict(list)
    for p in players:
        if capacity[p] > 0 and p not in involved:
            alike[frozenset(c for c, owners in allowed.items() if p in owners)].append(p)
    return [tuple((p, capacity[p]) for p in members)
            for members in alike.values() if len(members) > 1]


def merge(
    capacity: Sequence[int], allowed: Mapping[str, frozenset[int]], groups: Sequence[Group]
) -> tuple[list[int], dict[str, frozenset[int]], int]:
    """Capacities and possible owners with each group dealt as its first member, and the number
    of ways to split a group's cards among its members (the product over groups)."""
    merged = list(capacity)
    stands_in: set[int] = set()
    ways = 1
    for group in groups:
        places = [c for _, c in group]
        merged[group[0][0]] = sum(places)
        for member, _ in group[1:]:
            merged[member] = 0
            stands_in.add(member)
        ways *= math.factorial(sum(places)) // math.prod(math.factorial(c) for c in places)
    owners = {c: frozenset(o for o in os if o not in stands_in) for c, os in allowed.items()}
    return merged, owners, ways


def split(counts: dict[str, dict[int, int]], groups: Sequence[Group]) -> None:
    """Share each group's count of a card among its members, by places (in place; exact: the
    count carries the group's multinomial, a multiple of ``C / c_i``)."""
    for group in groups:
        first = group[0][0]
        places = sum(c for _, c in group)
        for row in counts.values():
            value = row.pop(first, 0)
            if value:
                for member, c in group:
                    row[member] = value * c // places


def split_deals(
    owners: np.ndarray, columns: np.ndarray, groups: Sequence[Group], gen: np.random.Generator
) -> None:
    """In drawn deals (``owners[i, j]``: who holds card j in deal i), hand each group's open
    cards (in ``columns``) to its members uniformly (a random order of the group's cards, cut
    by places). In place."""
    for group in groups:
        first = group[0][0]
        labels = np.repeat([m for m, _ in group], [c for _, c in group])
        for row in owners:
            held = columns[row[columns] == first]
            row[gen.permutation(held)] = labels[: len(held)]
