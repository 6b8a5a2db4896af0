"""Fit and measure the Knektpass choice model: ``python benchmarks/knektpass_choices.py WHAT``.

``fit`` plays deals between the Knektpass bots (advisor, greedy, random) at 3, 4 and 5 players on the fitting
seeds of :data:`FIT_PLAN` and prints the model of greatest likelihood as JSON: ``DEFAULT_MODEL`` in
``src/cardlogic/knektpass/choices.py`` was made by it. ``calibrate`` plays held-out deals (:data:`HELD_OUT`, seeds
never used for fitting) and scores each prior's P(card at player) for every hidden card and every other player,
from one seat's view at the start of each trick after the first: Brier score and log-loss.

``games [SEEDS] [PLAYERS] [FIRST]`` plays whole games (to 0 points) on held-out seeds from 3001 + FIRST,
``advisor-players`` against ``advisor`` with ``greedy`` in the other seats: each seed with the two advisors in
every two seats, so the deals are paired. ``latency`` times an event and the advice that follows it under each
prior at 3-5 players.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

import numpy as np

from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.choices import DEFAULT_MODEL, ChoiceModel, History, final_hands, fit
from cardlogic.knektpass.events import Play
from cardlogic.knektpass.rules import Game
from cardlogic.knektpass.tournament import NAMES, play_game, played_deals
from cardlogic.rating import wilson

FIT_PLAN = (
    (("advisor", "greedy", "greedy"), 1001, 40),
    (("advisor", "advisor", "greedy"), 1002, 40),
    (("greedy", "advisor", "random"), 1003, 30),
    (("advisor", "greedy", "advisor", "greedy"), 1004, 30),
    (("greedy", "advisor", "greedy", "advisor", "greedy"), 1005, 20),
)
"""(bots by seat, seed, deals) of the fitting deals: every bot, 3 to 5 players."""
HELD_OUT = (
    (("advisor", "greedy", "greedy"), 2001, 40),
    (("greedy", "advisor", "advisor"), 2002, 40),
    (("advisor", "greedy", "advisor", "greedy"), 2003, 30),
)
"""(bots by seat, seed, deals) of the calibration's held-out deals."""
CLIP = 1e-4
"""The least chance the log-loss takes: a sampled chance of 0 for a card that was there costs log(1e-4)."""


def fitted() -> ChoiceModel:
    games = [
        (History(state.deal, state.history), np.array([final_hands(state)]))
        for bots, seed, deals in FIT_PLAN
        for state in played_deals(bots, deals, seed)
    ]
    events = sum(history.events for history, _ in games)
    return fit(DEFAULT_MODEL, games, f"maximum likelihood on {len(games)} deals ({events:,} events)")


def calibration(observer: int = 0) -> dict[str, dict[str, float]]:
    """Per prior, the Brier score and log-loss of P(card at player) over the held-out deals' hidden cards."""
    scores: dict[str, list[tuple[float, float]]] = {"rules": [], "players": []}
    answered: list[str] = []
    for bots, seed, deals in HELD_OUT:
        for state in played_deals(bots, deals, seed):
            hands = final_hands(state)
            view = [event.seen_by(observer) for event in state.history]
            while state.history:  # back to the deal as dealt
                state.pop()
            n = len(state.deal.game.players)
            for prior in scores:
                belief = KnektpassBelief(state.deal, observer, state.hands[observer], prior=prior, samples=4000)
                for event in view:
                    if isinstance(event, Play) and not belief.view.trick and belief.view.tricks_played:
                        marginals = belief.marginals()
                        if prior == "players":
                            answered.append(belief.prior_answered)
                        held = set(belief.hand)
                        for i, card in enumerate(marginals.cards):
                            if card in held:
                                continue
                            for p in range(n):
                                if p == observer:
                                    continue
                                chance = float(marginals.probabilities[i, p])
                                truth = float(hands[p] >> card & 1)
                                scores[prior].append((chance, truth))
                    belief.push_unchecked(event)
    result = {}
    for prior, pairs in scores.items():
        chance, truth = np.array(pairs).T
        clipped = np.clip(chance, CLIP, 1 - CLIP)
        log_loss = -np.mean(truth * np.log(clipped) + (1 - truth) * np.log(1 - clipped))
        result[prior] = {"brier": float(np.mean((chance - truth) ** 2)), "log_loss": float(log_loss), "n": len(pairs)}
    collapsed = sum(a.startswith("rules") for a in answered)
    result["players"]["collapsed"] = collapsed
    result["players"]["states"] = len(answered)
    return result


GAME_SEEDS = 3001
"""The first seed of the paired games: never one of fitting's or the calibration's."""


def paired_games(seeds: int, players: int, first: int = 0) -> dict[str, object]:
    """``advisor-players`` against ``advisor`` (``greedy`` in the other seats) on ``seeds`` seeds from
    :data:`GAME_SEEDS` + ``first``, each seed played
    once for every two seats the two advisors can take: their wins with Wilson intervals, and the seeds on which
    one won more of the games than the other."""
    game = Game(NAMES[:players])
    bots = ("advisor-players", "advisor", "greedy")
    wins = {bot: [0] * seeds for bot in bots}
    pairs = list(itertools.permutations(range(players), 2))
    for index in range(seeds):
        for first, second in pairs:
            seats = ["greedy"] * players
            seats[first], seats[second] = bots[0], bots[1]
            winner = play_game(game, seats, GAME_SEEDS + first + index, index).winning_bot
            if winner is not None:
                wins[winner][index] += 1
    games = seeds * len(pairs)
    report: dict[str, object] = {"seeds": seeds, "games": games, "players": players}
    for bot, won in wins.items():
        low, high = wilson(sum(won), games)
        report[bot] = {"wins": sum(won), "rate": round(sum(won) / games, 3), "wilson": [round(low, 3), round(high, 3)]}
    paired = list(zip(wins[bots[0]], wins[bots[1]]))
    report["seeds advisor-players won more"] = sum(a > b for a, b in paired)
    report["seeds advisor won more"] = sum(a < b for a, b in paired)
    return report


def latency(deals: int = 4) -> dict[str, dict[str, float]]:
    """Per prior and table size (3-5 players), warm seconds from an event to the belief taken and, on the first
    seat's turn, its advice: the mean and the slowest over the first seat's view of ``deals`` deals of greedy bots
    (a first pass, not timed, compiles)."""
    from cardlogic.knektpass.advice import advise

    result = {}
    for _pass in ("compile", "timed"):  # the second pass overwrites the first
        for players in (3, 4, 5):
            views = []
            for state in played_deals(("greedy",) * players, deals, 4000 + players):
                events = [event.seen_by(0) for event in state.history]
                while state.history:  # back to the deal as dealt
                    state.pop()
                views.append((state.deal, state.hands[0], events))
            for prior in ("rules", "players"):
                seconds = []
                for deal, hand, events in views:
                    belief = KnektpassBelief(deal, 0, hand, prior=prior)
                    for event in events:
                        start = time.perf_counter()
                        belief.push(event)
                        if belief.view.to_move == 0:
                            advise(belief)
                        seconds.append(time.perf_counter() - start)
                result[f"{prior}, {players} players"] = {"mean": float(np.mean(seconds)), "max": float(max(seconds))}
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("fit", "calibrate", "games", "latency"))
    parser.add_argument("seeds", nargs="?", type=int, default=30)
    parser.add_argument("players", nargs="?", type=int, default=3)
    parser.add_argument("first", nargs="?", type=int, default=0, help="games: the first seed, after 3001")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.what == "fit":
        print(fitted().to_json(), end="")
    elif args.what == "calibrate":
        print(json.dumps(calibration(), indent=2))
    elif args.what == "latency":
        print(json.dumps(latency(), indent=2))
    else:
        print(json.dumps(paired_games(args.seeds, args.players, args.first), indent=2))
    print(f"{time.perf_counter() - start:.0f} s")
