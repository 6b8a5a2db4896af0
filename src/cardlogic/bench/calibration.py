"""Calibration of the beliefs: how often what a belief states comes true, for each prior, on held-out games.

:func:`calibrate` walks full records of games between bots and, before every
ask's answer, asks the asker's belief for P(yes), and a spectator's for P(yes) given
the ask it has just seen (:meth:`~cardlogic.literature.belief.LiteratureBelief.chance_of_yes`); before every claim
the claimer's belief for P(correct), as the advice states it
(:func:`~cardlogic.literature.advice.stated_chance`). Each prior's answers are scored against
what happened: Brier score, log-loss (probabilities clipped to [1e-6, 1 - 1e-6])
and a 10-bin reliability table (stated probability v the rate that came true,
with its Wilson interval). :func:`reliability_png` draws the asks' tables as a
reliability diagram when matplotlib is installed (the ``bench`` extra). Every
belief follows its game event by event, as at a table, so the players' prior
weighs :data:`~cardlogic.literature.belief.FOLLOWED_DEALS` deals, as ``cardlogic
live`` and ``serve`` do; ``deals=FIRST_DEALS`` scores what ``cardlogic advise``
states from a record.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from cardlogic.literature import Ask, Claim, Record, Rules, State
from cardlogic.literature.advice import CERTAIN, stated_chance
from cardlogic.literature.belief import FOLLOWED_DEALS, PRIORS, LiteratureBelief
from cardlogic.literature.choices import DEFAULT_STYLES, ChoiceModel, PlayerStyles
from cardlogic.literature.decks import Deck
from cardlogic.literature.tournament import Match, pair_setup, played_record
from cardlogic.rating import wilson

VIEWS = ("asker", "spectator")
T = TypeVar("T")
BINS = 10
CLIP = 1e-6


def bot_records(bots: tuple[str, str], players: int, games: int, seed: int) -> list[Record]:
    """Full records of games ``0 .. games - 1`` of a :class:`Match` between ``bots`` on ``seed``."""
    match = Match(bots, players=players, seed=seed)
    return [match.record(index) for index in range(games)]


def self_play_record(bot: str, players: int, seed: int, index: int) -> Record:
    """The full record of game ``index`` of ``bot`` against itself on ``seed``, dealt as pair ``index`` of
    ``cardlogic tournament`` (a :class:`Match` plays each deal twice, its teams swapped: here once)."""
    game, rng = pair_setup(players, Deck.named("no-8s"), Rules.parse(""), seed, index)
    return played_record(game, State.shuffled(game, rng).hands, (bot, bot), seed * 1_000_003 + index)


def self_play_records(bot: str, players: int, games: int, seed: int) -> list[Record]:
    """Games ``0 .. games - 1`` of :func:`self_play_record`."""
    return [self_play_record(bot, players, seed, index) for index in range(games)]


def calibrate(
    records: Sequence[Record],
    *,
    samples: int = 20000,
    choices: ChoiceModel | PlayerStyles = DEFAULT_STYLES,
    deals: int = FOLLOWED_DEALS,
) -> dict[str, Any]:
    """Every prior's P(yes) of every ask (from the asker's view and a spectator's) and P(correct) of every
    claim (the claimer's view), scored against the answers: ``{"asks": {view: {prior: scores}}, "claims":
    {prior: scores}}`` with the scores of :func:`scores`."""
    stated: dict[str, dict[str, list[float]]] = {
        kind: {prior: [] for prior in PRIORS} for kind in ("asker", "spectator", "claims")
    }
    outcomes: dict[str, list[bool]] = {"asks": [], "claims": []}
    for record in records:
        game = record.game
        n = len(game.players)
        beliefs = {
            prior: [
                LiteratureBelief(
                    game, p, record.hands[p], prior=prior, samples=samples, seed=0, choices=choices, deals=deals
                )
                for p in range(n)
            ]
            for prior in PRIORS
        }
        spectators = {
            prior: LiteratureBelief(game, prior=prior, samples=samples, seed=0, choices=choices, deals=deals)
            for prior in PRIORS
        }
        for event in record.events:
            if isinstance(event, Ask):
                for prior in PRIORS:
                    stated["asker"][prior].append(beliefs[prior][event.asker].probability(event.card, event.target))
                    stated["spectator"][prior].append(spectators[prior].chance_of_yes(event))
                outcomes["asks"].append(bool(event.yes))
            elif isinstance(event, Claim):
                for prior in PRIORS:
                    claimer = beliefs[prior][event.claimer]
                    chance = claimer.joint(dict(event.assignment))
                    certain = chance >= CERTAIN and claimer.certainly(dict(event.assignment))
                    stated["claims"][prior].append(stated_chance(claimer, chance, certain))
                outcomes["claims"].append(event.outcome == "correct")
            for prior in PRIORS:
                for belief in [*beliefs[prior], spectators[prior]]:
                    belief.push_unchecked(event)
    asks = np.array(outcomes["asks"], bool)
    claims = np.array(outcomes["claims"], bool)
    return {
        "games": len(records),
        "asks": {view: {prior: scores(stated[view][prior], asks) for prior in PRIORS} for view in VIEWS},
        "claims": {prior: scores(stated["claims"][prior], claims) for prior in PRIORS},
    }


def scores(stated: Sequence[float], happened: np.ndarray) -> dict[str, Any]:
    """Brier score, log-loss and the reliability table of probabilities ``stated`` for events that
    ``happened``; for claims, how often those stated at >= 0.8 came true (with the Wilson interval)."""
    p = np.clip(np.array(stated, float), 0.0, 1.0)
    y = happened.astype(float)
    if not len(p):
        return {"count": 0}
    clipped = np.clip(p, CLIP, 1 - CLIP)
    bins = []
    index = np.minimum((p * BINS).astype(int), BINS - 1)
    for b in range(BINS):
        inside = index == b
        count, hits = int(inside.sum()), int(y[inside].sum())
        if count:
            low, high = wilson(hits, count)
            bins.append(
                {
                    "bin": f"{b / BINS:.1f}-{(b + 1) / BINS:.1f}",
                    "count": count,
                    "stated": float(p[inside].mean()),
                    "true": hits / count,
                    "wilson": [low, high],
                }
            )
    confident = p >= 0.8
    right, total = int(y[confident].sum()), int(confident.sum())
    return {
        "count": len(p),
        "brier": float(np.mean((p - y) ** 2)),
        "log_loss": float(-np.mean(y * np.log(clipped) + (1 - y) * np.log(1 - clipped))),
        "reliability": bins,
        "at_least_0.8": {"count": total, "right": right, "wilson": list(wilson(right, total))},
    }


def table(results: dict[str, Any]) -> str:
    """The scores as plain-text lines: one per view and prior, then the asks' reliability tables."""
    lines = [f"calibration on {results['games']} held-out games"]
    sections = [(f"asks, {view}'s view", results["asks"][view]) for view in VIEWS]
    sections.append(("claims, claimer's view", results["claims"]))
    for title, by_prior in sections:
        for prior, s in by_prior.items():
            if not s["count"]:
                lines.append(f"{title}, prior {prior}: none")
                continue
            sure = s["at_least_0.8"]
            low, high = sure["wilson"]
            lines.append(
                f"{title}, prior {prior}: {s['count']} events, Brier {s['brier']:.4f}, log-loss "
                f"{s['log_loss']:.4f}, stated >= 0.8: {sure['right']}/{sure['count']} right "
                f"(95% Wilson {low:.2f}-{high:.2f})"
            )
    for view in VIEWS:
        for prior, s in results["asks"][view].items():
            lines.append(f"reliability, asks, {view}'s view, prior {prior} (bin: events, stated, came true)")
            lines.extend(
                f"  {b['bin']}: {b['count']:5d}  {b['stated']:.3f}  {b['true']:.3f}" for b in s.get("reliability", [])
            )
    return "\n".join(lines)


def reliability_png(results: dict[str, Any], path: str | Path) -> str:
    """Draw the asks' reliability diagram (one panel per view, one line per prior) to ``path``; a message
    saying what was done (or that matplotlib is missing and nothing was drawn)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "reliability diagram skipped: matplotlib is not installed (pip install 'cardlogic[bench]')"
    figure, axes = plt.subplots(1, len(VIEWS), figsize=(5 * len(VIEWS), 4.6), sharey=True)
    for axis, view in zip(axes, VIEWS):
        axis.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
        for prior, s in results["asks"][view].items():
            bins = s.get("reliability", [])
            label = f"{prior} (Brier {s['brier']:.3f})" if bins else prior
            axis.plot([b["stated"] for b in bins], [b["true"] for b in bins], marker="o", label=label)
        axis.set_title(f"P(yes) of asks, {view}'s view")
        axis.set_xlabel("stated")
        axis.legend(loc="upper left")
    axes[0].set_ylabel("came true")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return f"reliability diagram written to {path}"


def improvement(results: dict[str, Any], view: str = "asker") -> dict[str, float]:
    """How much lower the players' prior's Brier score and log-loss are than the rules', as shares."""
    rules, players = results["asks"][view]["rules"], results["asks"][view]["players"]
    if not rules["count"]:
        return {"brier": math.nan, "log_loss": math.nan}
    return {key: 1 - players[key] / rules[key] for key in ("brier", "log_loss")}


def advisor_games_script(description: str, measure: Callable[[str, int, int, int], T]) -> tuple[argparse.Namespace, T]:
    """The command line of a benchmark script that plays the advisor against OPPONENT (``OPPONENT PLAYERS SEED GAMES
    [--json FILE]``), and ``measure(opponent, players, seed, games)``; its ValueError (an unknown bot, a table size or
    seed out of range) ends the script with the usage and one line, exit code 2."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("opponent")
    parser.add_argument("players", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    try:
        return args, measure(args.opponent, args.players, args.seed, args.games)
    except ValueError as error:
        parser.error(str(error))


def write_advisor_games_json(args: argparse.Namespace, results: dict[str, Any]) -> None:
    """Write ``results`` after the games' opponent, players, seed and count to ``--json FILE``, if it was given."""
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {"opponent": args.opponent, "players": args.players, "seed": args.seed, "games": args.games} | results,
                out,
                indent=2,
            )
