"""Text and JSON for the odds, the accusation check, the advisor and what to show.

``analyze --json --odds`` adds ``"probabilities"`` (card -> owner -> number), ``"envelope_odds"``
(``[suspect, weapon, room, p]``, most likely first) and ``"odds_exact"``; approximate figures also
carry ``"odds_error"`` (card -> owner -> standard error) and ``"envelope_odds_error"``
(``[suspect, weapon, room, standard error]``). A contradictory log gives ``null`` for all three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .advice import ALTERNATIVES, AccusationCheck, Advice, Rule, ShowAdvice, Whom
from .game import Triple
from .i18n import _, list_said, local_figures, ngettext, percent_said
from .odds import Number, Odds

ODDS_LINES = 10
"""Envelope triples listed in the text output."""


def percent(p: Number, error: float | None = None) -> str:
    """``12.5%``, or ``12.5% ± 0.8`` for an approximate figure; a chance below 0.05% keeps two
    significant digits (``0.0077%``), so nothing possible reads as ``0.0%``. Written as the
    language writes numbers (`solver.i18n.local_figures`): ``12,5 %`` in Finnish and Russian."""
    value = 100 * float(p)
    text = f"{value:5.1f}%" if value == 0 or value >= 0.05 else f"{value:.2g}%"
    return local_figures(text if error is None else f"{text} ± {100 * error:.1f}")


def chance(p: Number, interval: tuple[float, float] | None) -> str:
    """An exact chance, or a sampled one with the range it is likely in (two standard errors).

    A possible envelope the sampler never drew is "under" the upper end, never "0.0%".
    """
    if interval is None:
        return percent(p).strip()
    low, high = interval
    if float(p) == 0:
        return _("under {chance} (possible, but not among the sampled deals)").format(
            chance=percent(high).strip())
    if low < 0.0005:
        return _("about {chance} (likely between just above 0% and {high})").format(
            chance=percent(p).strip(), high=percent(high).strip())
    return _("about {chance} (likely between {low} and {high})").format(
        chance=percent(p).strip(), low=percent(low).strip(), high=percent(high).strip())


def odds_json(result: Odds | None) -> dict[str, Any]:
    """The keys ``analyze --json --odds`` adds (``null`` values for a contradictory log)."""
    if result is None:
        return {"probabilities": None, "envelope_odds": None, "odds_exact": None}
    data: dict[str, Any] = {
        "probabilities": {
            card: {owner: float(p) for owner, p in row.items()}
            for card, row in result.probabilities.items()
        },
        "envelope_odds": [[s, w, r, float(p)] for s, w, r, p in result.envelope_odds],
        "odds_exact": result.exact,
    }
    if result.warning is not None:
        data["odds_warning"] = result.warning
    if result.error is not None:
        data["odds_error"] = {card: dict(row) for card, row in result.error.items()}
    if result.envelope_error is not None:
        data["envelope_odds_error"] = [
            [s, w, r, result.envelope_error[(s, w, r)]] for s, w, r, _ in result.envelope_odds
        ]
    return data


def odds_lines(result: Odds, limit: int = ODDS_LINES) -> list[str]:
    """The most likely envelopes, one per line, labelled exact or approximate."""
    headings = {
        (True, False): _("Envelope odds (exact):"),
        (True, True): _("Envelope odds (exact, refuter picks at random):"),
        (False, False): _("Envelope odds (approximate: sampled; ± one standard error):"),
        (False, True): _("Envelope odds (approximate: sampled; ± one standard error; refuter "
                         "picks at random):"),
    }
    lines = [headings[result.exact, result.refuter_model]]
    for s, w, r, p in result.envelope_odds[:limit]:
        error = result.envelope_error.get((s, w, r)) if result.envelope_error else None
        if error is not None and float(p) == 0:  # possible, never drawn: an upper bound
            under = _("under {chance}").format(chance=percent(2 * error).strip())
            lines.append(f"  {under}  {list_said((s, w, r))}")
        else:
            lines.append(f"  {percent(p, error)}  {list_said((s, w, r))}")
    hidden = len(result.envelope_odds) - limit
    if hidden > 0:
        lines.append("  " + ngettext("… and {count} less likely", "… and {count} less likely",
                                     hidden).format(count=hidden))
    if result.warning is not None:
        lines.append("  " + _("warning: {warning}").format(warning=result.warning))
    return lines


def accusation_text(check: AccusationCheck) -> str:
    """"safe"; "not right" when no deal fits the accusation (the envelope certain, if it is);
    else the chance that it is right; then the likelier alternatives."""
    s, w, r = check.triple
    if check.safe:
        return _("safe: the envelope is certainly {suspect}, {weapon}, {room}").format(
            suspect=s, weapon=w, room=r)
    if check.exact and not check.probability:  # wrong for certain: not "right with 0.0%"
        certain = [t for t in check.alternatives if t[3] == 1]
        if certain:
            a, b, c, _p = certain[0]
            return _("not right: the envelope is certainly {suspect}, {weapon}, {room}").format(
                suspect=a, weapon=b, room=c)
        lines = [_("not right: no deal that fits the log has {suspect}, {weapon}, {room} in "
                   "the envelope").format(suspect=s, weapon=w, room=r)]
    else:
        odds = chance(check.probability, check.interval)
        lines = [(_("not safe: {suspect}, {weapon}, {room} is right in {chance} of the deals "
                    "that fit the log")
                  if check.exact else
                  _("not safe: {suspect}, {weapon}, {room} is right in {chance} of the deals "
                    "that fit the log; approximate, sampled")).format(suspect=s, weapon=w,
                                                                       room=r, chance=odds)]
    if check.warning is not None:
        lines.append(_("warning: {warning}").format(warning=check.warning))
    if check.alternatives:
        lines.append(_("most likely alternatives:"))
        errors = check.alternative_errors or (None,) * len(check.alternatives)
        lines += [f"  {percent(p, e)}  {list_said((a, b, c))}"
                  for (a, b, c, p), e in zip(check.alternatives, errors, strict=True)]
    return "\n".join(lines)


def weighed_accusation_text(triple: Triple, chances: Mapping[Triple, tuple[float, float]],
                            ruled_out: bool = False, warning: str | None = None, *,
                            basis: str) -> str:
    """`accusation_text` for an accusation that is not safe, each envelope's chance weighed as
    the verdict under it weighs them (`solver.race.Verdict.chances`: players bluff as its factor
    says and accuse once they know), so the same envelope has the same chance on every line.
    ``ruled_out``: no deal that fits the log has ``triple`` ("not right", as `accusation_text`
    says it). ``warning``: the count's (`AccusationCheck.warning`), which the chances are read
    off. ``basis``: what the chances assume, as the verdict's line says it
    (`solver.race.bluff_said`).

    >>> print(weighed_accusation_text(("Plum", "Rope", "Hall"),
    ...     {("Plum", "Rope", "Hall"): (0.004, 0.0), ("Plum", "Rope", "Study"): (0.61, 0.0)},
    ...     basis="if players seldom bluff"))
    not safe: Plum, Rope, Hall is right <1% if players seldom bluff
    most likely alternatives:
       61%  Plum, Rope, Study
    """
    s, w, r = triple
    right = chances.get(triple, (0.0, 0.0))[0]
    lines = [_("not right: no deal that fits the log has {suspect}, {weapon}, {room} in the "
               "envelope").format(suspect=s, weapon=w, room=r) if ruled_out else
             _("not safe: {suspect}, {weapon}, {room} is right {chance} {basis}").format(
                 suspect=s, weapon=w, room=r, chance=percent_said(right, undecided=True),
                 basis=basis)]
    if warning is not None:
        lines.append(_("warning: {warning}").format(warning=warning))
    others = sorted(((p, t) for t, (p, _e) in chances.items() if t != triple),
                    key=lambda pt: -pt[0])[:ALTERNATIVES]
    if others:
        lines.append(_("most likely alternatives:"))
        lines += [f"  {percent_said(p, undecided=True):>4}  {list_said((a, b, c))}"
                  for p, (a, b, c) in others]
    return "\n".join(lines)


def accusation_json(check: AccusationCheck) -> dict[str, Any]:
    return {
        "cards": list(check.triple),
        "safe": check.safe,
        "probability": float(check.probability),
        "alternatives": [[s, w, r, float(p)] for s, w, r, p in check.alternatives],
        "exact": check.exact,
        **({} if check.interval is None else {"interval": list(check.interval)}),
        **({} if check.warning is None else {"warning": check.warning}),
    }


def refuted_said(advice: Advice, sure: bool) -> str:
    """"(refuted 62.0%)": the chance somebody refutes, taken over the deals drawn, so never
    "100.0%" or "0.0%" unless ``sure`` (`solver.advice.refuted_certain`).

    >>> a = Advice(("Plum", "Rope", "Hall"), 0.0, 1.0)
    >>> refuted_said(a, False), refuted_said(a, True)
    ('(refuted >99.9%)', '(refuted 100.0%)')
    """
    value = 100 * advice.refuted
    chance = (">99.9%" if value >= 99.95 else "<0.1%" if value < 0.05 else None) if not sure \
        else None
    return _("(refuted {chance})").format(chance=chance or percent(advice.refuted).strip())


def advice_lines(advice: Sequence[Advice], top: int, reasons: Sequence[str] = (),
                 sure: Sequence[bool] = ()) -> list[str]:
    """The ranking, each suggestion with its one-line reason (`solver.advice.reason`) below:
    by default the summed chance that its cards are in the envelope (as players play), with
    `Rule.INFORMATION` the expected information; the chance it is refuted as `refuted_said`
    says it (``sure``: whether each is certain; by default none is)."""
    likeliest = bool(advice) and advice[0].rule is Rule.LIKELIEST
    lines = [_("Suggestions by the chance their cards are in the envelope (summed, if players "
               "ask about cards they do not hold):") if likeliest else
             _("Suggestions by expected information about the envelope (bits):")]
    for i, a in enumerate(advice[:top]):
        refuted = refuted_said(a, i < len(sure) and sure[i])
        score = a.score if likeliest else a.gain
        lines.append(f"  {score:5.2f}  {list_said(a.triple)}   {refuted}")
        if i < len(reasons):
            lines.append(f"         {reasons[i]}")
    return lines


def advice_json(advice: Sequence[Advice], top: int,
                reasons: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Each suggestion: cards, the rule and score it was ranked by, gain, chance refuted, what
    the table hears, and its reason."""
    out: list[dict[str, Any]] = []
    for i, a in enumerate(advice[:top]):
        item: dict[str, Any] = {"cards": list(a.triple), "rule": a.rule.value, "score": a.score,
                                "gain": a.gain, "refuted": a.refuted, "table_gain": a.public}
        if i < len(reasons):
            item["reason"] = reasons[i]
        out.append(item)
    return out


def whom_lines(whom: Whom, reasons: Sequence[str] = (), sure: Sequence[bool] = ()) -> list[str]:
    """The forum variant: whom to ask and what, then every other player with the best question
    put to them alone, by what their answer is expected to tell about the envelope (bits);
    ``reasons`` (`solver.advice.reason`) go under the first; ``sure`` as in `advice_lines`,
    for each player."""
    s, w, r = whom.best.triple
    lines = [_("ask {player}: {suspect}, {weapon}, {room}").format(
        player=whom.player, suspect=s, weapon=w, room=r)]
    lines += [f"         {reason}" for reason in reasons[:1]]
    lines.append(_("Each player, asked alone, by expected information about the envelope "
                   "(bits):"))
    for i, (player, a) in enumerate(whom.players):
        refuted = refuted_said(a, i < len(sure) and sure[i])
        lines.append(f"  {a.gain:5.2f}  {player}: {list_said(a.triple)}   {refuted}")
    return lines


def whom_json(whom: Whom, reasons: Sequence[str] = ()) -> dict[str, Any]:
    """Whom to ask (``player``), and each player with the best suggestion put to them alone
    (`advice_json`'s fields), the one to ask first."""
    players = [{"player": player, **advice_json([a], 1, reasons if i == 0 else ())[0]}
               for i, (player, a) in enumerate(whom.players)]
    return {"player": whom.player, "players": players}


def show_text(advice: ShowAdvice) -> str:
    reasons = {
        "only match": _("show {card}: it is your only match"),
        "already seen": _("show {card}: they have seen it from you before: it tells them "
                          "nothing new"),
        "least telling": _("show {card}: it leaves them the most envelopes open"),
    }
    lines = [reasons[advice.reason].format(card=advice.card)]
    for card, left in sorted(advice.open_after.items(), key=lambda kv: -kv[1]):
        bits = advice.entropy_after[card]
        lines.append("  " + _("{card}: about {count} envelopes open to them after it (public "
                              "view: {bits} bits)").format(card=card, count=f"{left:.1f}",
                                                           bits=f"{bits:.2f}"))
    return "\n".join(lines)


def show_json(advice: ShowAdvice) -> dict[str, Any]:
    return {"card": advice.card, "reason": advice.reason,
            "entropy_after": advice.entropy_after, "open_after": advice.open_after}
