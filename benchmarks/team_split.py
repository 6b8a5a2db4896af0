"""How well the advisor's belief knows which hidden cards are with the opponents: ``python benchmarks/team_split.py
OPPONENT PLAYERS SEED GAMES``.

Plays games ``0 .. GAMES - 1`` of the advisor against OPPONENT (paired deals, as ``cardlogic tournament``) and, at
every ask of an advisor, takes for each card in play it does not hold and the rules leave uncertain the chance that
the card is with the opponents, under the players' prior (the advisor's own belief) and under the rules' (the same
history), and whether it is. Prints each prior's Brier score and log-loss beside those of the base rate (the share
of those cards with the opponents, stated every time); ``--json FILE`` writes them with the reliability tables.

An advisor told which cards are with its own team wins nearly every game it does not win now (docs/bots.md), so
this is the belief's score on what decides games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from cardlogic.bench.calibration import advisor_games_script, scores, write_advisor_games_json
from cardlogic.cards import Card, iter_cards
from cardlogic.literature import Ask, Event
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.bots import AdvisorBot, Bot
from cardlogic.literature.tournament import Match

PRIORS = ("players", "rules")


def split_stated(opponent: str, players: int, seed: int, games: int) -> tuple[dict[str, list[float]], list[bool]]:
    """Per prior, the chances stated at the advisors' asks that each uncertain card is with the opponents; and
    whether it was."""
    match = Match(("advisor", opponent), players=players, seed=seed)
    stated: dict[str, list[float]] = {prior: [] for prior in PRIORS}
    with_opponents: list[bool] = []
    for index in range(games):
        _, hands, _ = match.setup(index)
        match.record(
            index,
            _watcher({card: p for p, hand in enumerate(hands) for card in iter_cards(hand)}, stated, with_opponents),
        )
    return stated, with_opponents


def _watcher(
    holder: dict[Card, int], stated: dict[str, list[float]], with_opponents: list[bool]
) -> Callable[[Sequence[Bot], Event], None]:
    """A watch for :meth:`Match.record` that adds to ``stated`` and ``with_opponents`` at every advisor's ask and
    keeps ``holder`` (every card's holder, from the deal on) up to date."""

    def watch(bots: Sequence[Bot], event: Event) -> None:
        if isinstance(event, Ask) and isinstance(bot := bots[event.asker], AdvisorBot):
            game = bot.game
            team = game.team_of(bot.player)
            opponents = list(game.opponents(bot.player))
            rules = LiteratureBelief(
                game,
                bot.player,
                iter_cards(bot.dealt),
                sure_asks_first=bot.belief.tracker.sure_asks_first,
                prior="rules",
            )
            for past in bot.belief.view.history:
                rules.push_unchecked(past)
            chances = {}
            for prior, belief in (("players", bot.belief), ("rules", rules)):
                table = belief.marginals()
                chances[prior] = dict(zip(table.cards, table.probabilities[:, opponents].sum(axis=1)))
            for card, p_rules in chances["rules"].items():
                if holder[card] != bot.player and 1e-9 < p_rules < 1 - 1e-9:
                    for prior in PRIORS:
                        stated[prior].append(float(chances[prior][card]))
                    with_opponents.append(game.team_of(holder[card]) != team)
        if isinstance(event, Ask) and event.yes:
            holder[event.card] = event.asker

    return watch


if __name__ == "__main__":
    args, (stated, truth) = advisor_games_script(__doc__.splitlines()[0], split_stated)
    happened = np.array(truth, bool)
    share = float(happened.mean()) if len(happened) else 0.0
    results = {prior: scores(stated[prior], happened) for prior in PRIORS}
    results["base rate"] = scores([share] * len(happened), happened)
    print(
        f"advisor v {args.opponent}, {args.players} players, seed {args.seed}, {args.games} games: "
        f"{len(happened)} uncertain cards at the advisors' asks, {share:.3f} of them with the opponents"
    )
    for name, result in results.items():
        if result["count"]:
            print(f"  {name}: Brier {result['brier']:.4f}, log-loss {result['log_loss']:.4f}")
    write_advisor_games_json(args, {"share": share} | results)
