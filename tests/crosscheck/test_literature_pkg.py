"""Cross-check against the PyPI package ``literature``: its players' deductions against our certain facts.

On the same seeded random ``no-7s`` games, replayed event by event:

* with its rules repaired (two unsound deductions fixed), every fact its players
  state is certain for us, and we find strictly more;
* with its rules as shipped, every fact of theirs that is not certain for us is
  their error: false in the true deal, or made false by a counterexample deal
  consistent with everything the player saw, which its own engine, replayed on
  that deal, still deduces.
"""

from __future__ import annotations

import pytest

pytest.importorskip("literature")

from cardlogic.literature import peer
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.peer import compare_game, compare_games, literature_replay, to_card, to_name

# Two dozen games, about 40 s of CPU in all (a 4-player game takes under a second, a 6-player one about three).
REPAIRED_GAMES = [(4, seed) for seed in range(14)] + [(6, seed) for seed in range(3)]
PACKAGE_GAMES = [(4, seed) for seed in range(6)] + [(6, seed) for seed in range(2)]


_PLAYED: dict[tuple[int, int, bool, str], peer.Comparison] = {}


def played(players: int, seed: int, judge: bool = True, rules: str = "package") -> peer.Comparison:
    """:func:`compare_game`, played once per set of arguments in this module (a game is seeded: the same)."""
    key = (players, seed, judge, rules)
    if key not in _PLAYED:
        _PLAYED[key] = compare_game(players, seed, judge, rules)
    return _PLAYED[key]


@pytest.fixture(scope="module")
def repaired() -> list[peer.Comparison]:
    return [played(players, seed, rules="repaired") for players, seed in REPAIRED_GAMES]


@pytest.fixture(scope="module")
def shipped() -> list[peer.Comparison]:
    return [played(players, seed) for players, seed in PACKAGE_GAMES]


class TestTranslation:
    def test_cards_and_sets_are_the_no_7s_deck(self) -> None:
        import literature as lit

        deck = Deck.named("no-7s")
        names = [lit.Card.Name(r, s) for r in lit.MINOR | lit.MAJOR for s in lit.Suit]
        assert sorted(to_card(n) for n in names) == sorted(deck.cards)
        for name in names:
            card = to_card(name)
            assert to_name(card) == name
            assert str(card)[-1] == name.suit.name[0]
            assert deck.set_of(card).high == (name.half_suit().half == lit.Half.MAJOR)
        by_set = {}
        for name in names:
            by_set.setdefault(deck.set_index_of(to_card(name)), set()).add(name.half_suit())
        assert all(len(halves) == 1 for halves in by_set.values())

    def test_player_counts(self) -> None:
        for n in peer.PLAYER_COUNTS:
            game = peer.literature_game(n, first=n - 1)
            assert game.sizes == (48 // n,) * n and game.teams == tuple(p % 2 for p in range(n))
            assert game.first_to_move == n - 1
        with pytest.raises(ValueError):
            peer.literature_game(5, 0)

    def test_replays_are_legal_for_our_referee_and_end_where_theirs_does(self, shipped) -> None:
        # compare_game pushes every event through our referee and checks whose turn follows.
        for comparison in shipped:
            assert comparison.events and comparison.moments == len(comparison.events) - _passes(comparison) + 1
            peer._replay(comparison.game, comparison.hands, comparison.events)

    def test_dropping_their_models_of_others_changes_no_knowledge(self, shipped) -> None:
        import literature as lit

        # the 4-player game of seed 2 with the shipped rules (judging its disagreements changes none of its moves)
        comparison = next(c for c in shipped if (c.players, c.seed) == (4, 2))
        ours = literature_replay(comparison.hands, comparison.first, comparison.events)
        full = lit.Literature(
            4,
            lambda n: [[to_name(c) for c in peer._cards(h)] for h in comparison.hands],
            lambda: (comparison.first + 0.5) / 4,
        )
        for event in comparison.events:
            _commit(lit, full, event)
        for mine, theirs in zip(ours.players, full.players):
            assert dict(mine.knowledge) == dict(theirs.knowledge)


class TestRepairedRules:
    def test_every_fact_they_deduce_is_certain_for_us(self, repaired) -> None:
        assert [d for game in repaired for d in game.unconfirmed] == []

    def test_we_find_more(self, repaired) -> None:
        assert all(game.our_facts == game.their_facts + game.extra for game in repaired)
        assert all(game.extra > 0 for game in repaired)

    def test_summary_for_scripts(self, repaired, monkeypatch) -> None:
        # Its two games (4 players, seeds 5 and 6, repaired rules, judged) are among the fixture's: summed, not replayed.
        assert {(4, 5), (4, 6)} <= set(REPAIRED_GAMES)
        monkeypatch.setattr(peer, "compare_game", played)
        summary = compare_games(2, seed=5, players=(4,), rules="repaired")
        assert summary["games"] == 2 and summary["unconfirmed"] == 0 and summary["verdicts"] == {}
        assert summary["our_facts"] == summary["their_facts"] + summary["extra"]
        assert summary["their_seconds_per_game"] > 0 and summary["our_seconds_per_game"] > 0


class TestShippedRules:
    def test_every_disagreement_is_their_error(self, shipped) -> None:
        disagreements = [d for game in shipped for d in game.unconfirmed]
        assert disagreements, "these seeds are known to expose the package's unsound rules"
        assert {d.verdict for d in disagreements} == {"false", "unsupported"}

    def test_their_false_facts_are_false_in_the_true_deal(self, shipped) -> None:
        for game in shipped:
            for d in game.unconfirmed:
                if d.verdict == "false":
                    hands = peer._replay(game.game, game.hands, game.events[: d.step]).hands
                    assert bool(hands[d.fact.holder] >> d.fact.card & 1) != d.fact.has

    def test_counterexamples_fool_their_own_engine(self, shipped) -> None:
        checked = 0
        for game in shipped:
            for d in game.unconfirmed:
                if d.verdict != "unsupported" or checked >= 10:
                    continue
                checked += 1
                history = game.events[: d.step]
                # The deal is consistent with the history and the observer's hand ...
                assert d.counterexample[d.observer] == game.hands[d.observer]
                now = peer._replay(game.game, d.counterexample, history).hands
                assert bool(now[d.fact.holder] >> d.fact.card & 1) != d.fact.has
                # ... and their player, seeing the same, states the fact that is false there.
                fooled = literature_replay(d.counterexample, game.first, history)
                assert d.fact in peer.their_facts(_lit(), fooled, d.observer)
        assert checked

    def test_the_repair_removes_exactly_the_unsound_deductions(self, shipped) -> None:
        for game in shipped[:4]:
            for step in sorted({d.step for d in game.unconfirmed})[:1]:
                history = game.events[:step]
                observers = {d.observer for d in game.unconfirmed if d.step == step}
                fixed = literature_replay(game.hands, game.first, history, rules="repaired")
                for observer in observers:
                    belief = LiteratureBelief(game.game, observer, peer._cards(game.hands[observer]))
                    for event in history:
                        belief.push(event)
                    assert peer.their_facts(_lit(), fixed, observer, game.game.players) <= set(belief.certain())


def _lit():
    import literature

    return literature


def _passes(comparison: peer.Comparison) -> int:
    return sum(1 for e in comparison.events if isinstance(e, peer.Pass))


def _commit(lit, game, event) -> None:
    if isinstance(event, peer.Ask):
        game.turn = game.players[event.asker]
        game.commit_move(game.players[event.asker].asks(game.players[event.target]).to_give(to_name(event.card)))
    elif isinstance(event, peer.Claim):
        game.commit_claim(game.players[event.claimer], {to_name(c): lit.Actor(p) for c, p in event.assignment})
    else:
        game.turn = game.players[event.receiver]
