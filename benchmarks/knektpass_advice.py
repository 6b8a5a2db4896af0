"""Time Knektpass advice per decision: ``python benchmarks/knektpass_advice.py [--players N] [--games G] [--json]``.

Plays seeded games of the advisor against greedy bots and times every call of
:func:`cardlogic.knektpass.advice.advise` (sampling deals from the belief and
solving each), by phase. The first decision (numba's cache load) is left out:
the figures are warm.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from cardlogic.knektpass import Game, Match, PlayerState, State
from cardlogic.knektpass.advice import advise
from cardlogic.knektpass.belief import KnektpassBelief
from cardlogic.knektpass.bots import make_bot
from cardlogic.knektpass.tournament import NAMES


def measure(players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Seconds per advice call, by phase, over ``games`` games with the advisor in seat 0."""
    times: dict[str, list[float]] = {}
    first = True
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        game = Game(NAMES[:players])
        match = Match(game, dealer=rng.randrange(players))
        while not match.is_over and match.deals < 100:
            deal = match.next_deal(rng.choice(game.deck))
            state = State.shuffled(deal, rng)
            views = [PlayerState(deal, p, state.hands[p]) for p in range(players)]
            belief = KnektpassBelief(deal, 0, state.hands[0])
            bots = [make_bot("greedy", deal, p, state.hands[p]) for p in range(players)]
            while not state.is_over:
                mover = state.to_move
                assert mover is not None  # someone moves until the deal is over
                if mover == 0:
                    start = time.perf_counter()
                    advice = advise(belief, seed=index)
                    elapsed = time.perf_counter() - start
                    if not first:
                        times.setdefault(advice.phase, []).append(elapsed)
                    first = False
                    event = advice.best
                else:
                    event = bots[mover].choose(views[mover])
                event = state.push(event)
                for p, view in enumerate(views):
                    view.push(event.seen_by(p))
                belief.push_unchecked(event.seen_by(0))
            match.finish(state.outcome())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    times = measure(args.players, args.games, args.seed)
    summary = {
        phase: {
            "decisions": len(values),
            "mean_ms": 1000 * float(np.mean(values)),
            "median_ms": 1000 * float(np.median(values)),
            "p95_ms": 1000 * float(np.percentile(values, 95)),
            "max_ms": 1000 * float(np.max(values)),
        }
        for phase, values in sorted(times.items())
    }
    if args.json:
        print(json.dumps({"players": args.players, "games": args.games, "phases": summary}))
        return
    print(f"advice per decision, {args.players} players, {args.games} games (warm)")
    for phase, row in summary.items():
        print(
            f"  {phase:9} {row['decisions']:4} decisions  median {row['median_ms']:6.1f} ms  "
            f"p95 {row['p95_ms']:6.1f} ms  max {row['max_ms']:6.1f} ms"
        )


if __name__ == "__main__":
    main()
