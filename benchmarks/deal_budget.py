"""How the players' prior's calibration grows with the deals it weighs: ``python benchmarks/deal_budget.py DEALS
[--players N] [--seed S] [--games G] [--json FILE]``.

Plays games ``0 .. G - 1`` of ``strong`` against itself (default: 30 games at 6 players, seed 260; the deal of
game ``i`` is that of pair ``i`` of ``cardlogic tournament``) and, before every ask's answer, asks the asker's
belief, followed event by event as at a table, for P(yes): under the rules, and under the players' prior weighing
DEALS of the rules' deals (``LiteratureBelief(deals=DEALS)``: its thresholds and likelihood budget in proportion).
Prints both priors' Brier score and log-loss and how much lower the players' are; ``--json FILE`` writes them with
the reliability tables. Games between strong players are where the players' choices say most (docs/beliefs.md).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from cardlogic import arguments
from cardlogic.bench.calibration import scores, self_play_records
from cardlogic.literature import Ask, Record
from cardlogic.literature.belief import LiteratureBelief

PRIORS = ("rules", "players")


def asker_chances(records: list[Record], deals: int) -> tuple[dict[str, list[float]], list[bool]]:
    """Per prior, the asker's P(yes) before every ask's answer; and the answers."""
    stated: dict[str, list[float]] = {prior: [] for prior in PRIORS}
    answers: list[bool] = []
    for record in records:
        game = record.game
        beliefs = {
            prior: [
                LiteratureBelief(game, p, record.hands[p], prior=prior, deals=deals, samples=max(deals, 20_000))
                for p in range(len(game.players))
            ]
            for prior in PRIORS
        }
        for event in record.events:
            if isinstance(event, Ask):
                for prior in PRIORS:
                    stated[prior].append(beliefs[prior][event.asker].probability(event.card, event.target))
                answers.append(bool(event.yes))
            for prior in PRIORS:
                for belief in beliefs[prior]:
                    belief.push_unchecked(event)
    return stated, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", type=int)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=260)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    try:
        arguments.samples(args.deals, "deals")
        arguments.integer("games", args.games, 1)
        stated, answers = asker_chances(self_play_records("strong", args.players, args.games, args.seed), args.deals)
    except ValueError as error:  # a table size, seed, deal or game count out of range
        parser.error(str(error))
    happened = np.array(answers, bool)
    results = {prior: scores(stated[prior], happened) for prior in PRIORS}
    rules, players = results["rules"], results["players"]
    print(f"{len(answers)} asks in {args.games} games of strong v strong, {args.players} players, seed {args.seed}")
    for prior in PRIORS:
        print(f"{prior:8s} Brier {results[prior]['brier']:.4f}  log-loss {results[prior]['log_loss']:.4f}")
    print(
        f"the players' prior weighing {args.deals:,} deals: Brier {1 - players['brier'] / rules['brier']:.1%} and "
        f"log-loss {1 - players['log_loss'] / rules['log_loss']:.1%} lower than the rules'"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(vars(args) | {"asks": len(answers), "scores": results}, out, indent=2)


if __name__ == "__main__":
    main()
