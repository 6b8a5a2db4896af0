"""The advisor under each prior against a bot: ``python benchmarks/advisor_prior.py OPPONENT GAMES SEED``.

Plays games ``0 .. GAMES - 1`` of a tournament between the advisor as shipped (its belief under the players'
prior) and ``OPPONENT`` (6 players, pairs of games on the same deal with the teams swapped), then the same games
with the advisor whose belief takes the rules' prior (as it did before 2026-12-01), and prints each one's wins,
ties and losses with the 95% Wilson interval of its win rate, and the seconds each took. The rules' advisor is
no bot of the package: it is kept here to compare.
"""

from __future__ import annotations

import argparse
import time

from cardlogic.literature import bots
from cardlogic.literature.tournament import Match
from cardlogic.rating import wilson


class RulesAdvisor(bots.AdvisorBot):
    """The advisor, its belief under the rules' prior."""

    name = "advisor-rules"
    PRIOR = "rules"


def play(advisor: str, opponent: str, games: int, seed: int) -> str:
    """One line: ``advisor``'s wins, ties and losses against ``opponent`` over the games, and their seconds."""
    match = Match((advisor, opponent), players=6, seed=seed)
    start = time.perf_counter()
    winners = [match.play(index).winner for index in range(games)]
    wins, ties = winners.count(advisor), winners.count(None)
    low, high = wilson(wins, games)
    return (
        f"{advisor} v {opponent}, seed {seed}: {wins} wins, {ties} ties, {games - wins - ties} losses of {games}; "
        f"win rate {wins / games:.2f} (95% Wilson {low:.2f}-{high:.2f}); {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent")
    parser.add_argument("games", type=int)
    parser.add_argument("seed", type=int)
    args = parser.parse_args()
    bots.BOTS[RulesAdvisor.name] = RulesAdvisor
    for advisor in ("advisor", RulesAdvisor.name):
        print(play(advisor, args.opponent, args.games, args.seed), flush=True)
