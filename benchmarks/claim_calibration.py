"""How often the advisor's uncertain claims come true: ``python benchmarks/claim_calibration.py OPPONENT PLAYERS
SEED GAMES``.

Plays games ``0 .. GAMES - 1`` of the advisor against OPPONENT (paired deals, as ``cardlogic tournament``) and,
for every claim an advisor makes on its own turn that its belief does not make certain and that is not forced
(the opponents still hold cards), takes the chance it stated (``ClaimAdvice.p_correct`` of its last advice) and
whether the claim was right. Prints the Brier score, the log-loss, the 10-bin reliability table and how many of
those stated at 0.8 or more came true, with the 95% Wilson interval; ``--json FILE`` writes them too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardlogic.bench.calibration import advisor_games_script, scores, write_advisor_games_json
from cardlogic.literature import Claim, Event
from cardlogic.literature.bots import AdvisorBot, Bot
from cardlogic.literature.tournament import Match


def claims_stated(opponent: str, players: int, seed: int, games: int) -> tuple[list[float], list[bool]]:
    """The chances the advisor stated for its uncertain, unforced claims, and whether each came true."""
    match = Match(("advisor", opponent), players=players, seed=seed)
    stated: list[float] = []
    right: list[bool] = []

    def watch(bots: Sequence[Bot], event: Event) -> None:
        if not isinstance(event, Claim) or not isinstance(bot := bots[event.claimer], AdvisorBot):
            return
        advice = bot.last_advice
        if advice is None:
            return
        chosen = advice.recommendation.event
        if not isinstance(chosen, Claim) or chosen.set_index != event.set_index:
            return  # a claim made off its turn (claim-anytime=on): certain, and not what its last advice weighed
        claim = next(c for c in advice.claims if c.set_index == event.set_index)
        if not claim.certain and not claim.forced:
            stated.append(claim.p_correct)
            right.append(event.outcome == "correct")

    for index in range(games):
        match.record(index, watch)
    return stated, right


if __name__ == "__main__":
    args, (stated, right) = advisor_games_script(__doc__.splitlines()[0], claims_stated)
    result = scores(stated, np.array(right, bool))
    if not result["count"]:
        print("no uncertain claim was made")
    else:
        sure = result["at_least_0.8"]
        low, high = sure["wilson"]
        print(
            f"advisor v {args.opponent}, {args.players} players, seed {args.seed}, {args.games} games: "
            f"{result['count']} uncertain claims, {sum(right)} right; Brier {result['brier']:.4f}, "
            f"log-loss {result['log_loss']:.4f}; stated >= 0.8: {sure['right']} of {sure['count']} right "
            f"(95% Wilson {low:.2f}-{high:.2f})"
        )
        for row in result["reliability"]:
            print(f"  {row['bin']}: {row['count']:4d} claims, stated {row['stated']:.3f}, came true {row['true']:.3f}")
    write_advisor_games_json(args, result)
