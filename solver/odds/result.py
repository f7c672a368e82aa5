"""What the odds are: a probability for every card and owner and for every possible envelope."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..game import Game, Triple

Number = Fraction | float
"""An exact probability (`Fraction`) or an approximate one (`float`)."""

@dataclass(frozen=True)
class Odds:
    """Probabilities for every card and owner, and for every envelope triple still possible."""

    game: Game
    """The setup."""
    probabilities: Mapping[str, Mapping[str, Number]]
    """card -> owner -> probability that the owner holds the card (every card, every owner)."""
    envelope_odds: tuple[tuple[str, str, str, Number], ...]
    """(suspect, weapon, room, probability) for every possible envelope, most likely first."""
    exact: bool
    """True for an exact count; False for the sampling fallback."""
    refuter_model: bool = False
    """Whether a refuter with several matches was assumed to show one at random."""
    error: Mapping[str, Mapping[str, float]] | None = None
    """Approximate only: standard error of each figure in ``probabilities``."""
    envelope_error: Mapping[Triple, float] | None = None
    """Approximate only: standard error of each envelope triple's probability."""
    deals: int | None = None
    """Exact only: the number of consistent deals (weighted, scaled, under the refuter model)."""
    warning: str | None = None
    """Approximate only: why the figures may be unreliable (the sampler's chains disagree)."""

    def envelope(self, triple: Triple) -> Number:
        """The probability that ``triple`` is the answer."""
        return next((p for s, w, r, p in self.envelope_odds if (s, w, r) == triple), 0)

    def envelope_interval(self, triple: Triple) -> tuple[float, float]:
        """The probability of ``triple`` within two standard errors (the figure twice when
        exact); never below 0 nor above 1."""
        p = float(self.envelope(triple))
        e = 2 * self.envelope_error.get(triple, 0.0) if self.envelope_error else 0.0
        return max(0.0, p - e), min(1.0, p + e)

    def entropy(self) -> float:
        """Entropy of the envelope distribution, in bits."""
        return entropy(float(p) for *_, p in self.envelope_odds)


def entropy(probabilities: Iterable[float]) -> float:
    """Shannon entropy in bits of a distribution (zeros ignored)."""
    return -sum(p * math.log2(p) for p in probabilities if p > 0)
