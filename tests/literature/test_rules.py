import pytest

from cardlogic.literature import Game, GameError, Rules, dealt_sizes
from cardlogic.literature.decks import Deck

SIX = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


class TestRules:
    def test_defaults(self):
        assert Rules() == Rules.parse("") == Rules("split", False, False, False)

    def test_parse_every_key(self):
        rules = Rules.parse(
            "wrong-claim=opponents bluff=on must-declare=on high-double=on after-claim=team-picks claim-anytime=on"
        )
        assert rules == Rules("opponents", True, True, True, "team-picks", True) and rules.team_picks
        assert Rules().after_claim == "continue" and not Rules().team_picks and not Rules().claim_anytime

    def test_parse_is_case_insensitive(self):
        assert Rules.parse("Wrong-Claim=Opponents BLUFF=ON") == Rules("opponents", bluff=True)

    def test_str_is_canonical_and_round_trips(self):
        rules = Rules("opponents", bluff=True)
        assert (
            str(rules)
            == "wrong-claim=opponents bluff=on must-declare=off high-double=off after-claim=continue claim-anytime=off"
        )
        assert Rules.parse(str(rules)) == rules

    @pytest.mark.parametrize(
        "text, message",
        [
            ("bluff", "unknown house rule"),
            ("cheat=on", "unknown house rule"),
            ("bluff=yes", "on or off"),
            ("wrong-claim=void", "wrong-claim must be"),
            ("after-claim=pass", "after-claim must be one of continue, team-picks, not 'pass'"),
            ("claim-anytime=yes", "claim-anytime must be on or off"),
            ("bluff=on bluff=off", "given twice"),
        ],
    )
    def test_bad_rules(self, text, message):
        with pytest.raises(GameError, match=message) as info:
            Rules.parse(text)
        assert info.value.field == "rules"


class TestDealing:
    def test_even_deal(self):
        assert dealt_sizes(48, 6, 5) == (8,) * 6

    @pytest.mark.parametrize(
        "dealer, sizes", [(4, (10, 10, 10, 9, 9)), (0, (9, 10, 10, 10, 9)), (2, (10, 9, 9, 10, 10))]
    )
    def test_players_after_the_dealer_get_the_extra_cards(self, dealer, sizes):
        assert dealt_sizes(48, 5, dealer) == sizes

    def test_game_derives_sizes_from_the_dealer(self):
        game = Game(SIX[:5], dealer=1)
        assert game.sizes == (9, 9, 10, 10, 10) and game.first_to_move == 1

    @pytest.mark.parametrize("n", range(4, 13))
    @pytest.mark.parametrize("deck", ["no-8s", "jokers", "fours"])
    def test_every_player_count_and_deck(self, n, deck):
        for dealer in range(n):
            game = Game(tuple(f"P{i}" for i in range(n)), deck=Deck.named(deck), dealer=dealer)
            assert sum(game.sizes) == len(game.deck.cards)
            assert max(game.sizes) - min(game.sizes) <= 1
            extra = [p for p in range(n) if game.sizes[p] > min(game.sizes)]
            assert all((p - dealer - 1) % n < len(extra) for p in extra)


class TestGame:
    def test_defaults(self):
        game = Game(SIX, dealer=5)
        assert game.teams == (0, 1, 0, 1, 0, 1)
        assert game.deck == Deck.named("no-8s") and game.rules == Rules()

    def test_teams_and_seats(self):
        game = Game(SIX, teams=(0, 0, 0, 1, 1, 1), dealer=0)
        assert game.team_of(4) == 1
        assert game.members(0) == (0, 1, 2)
        assert game.teammates(1) == (0, 2)
        assert game.opponents(1) == (3, 4, 5)

    def test_player_index_is_case_insensitive(self):
        game = Game(SIX, dealer=0)
        assert game.player_index("cat") == 2
        with pytest.raises(GameError, match="unknown player 'Zed'"):
            game.player_index("Zed")

    def test_without_a_dealer_sizes_are_given_or_even(self):
        assert Game(SIX).sizes == (8,) * 6 and Game(SIX).first_to_move is None
        assert Game(SIX[:5], sizes=(10, 10, 10, 9, 9)).sizes == (10, 10, 10, 9, 9)
        with pytest.raises(GameError, match="name a dealer or give sizes") as info:
            Game(SIX[:5])
        assert info.value.field == "sizes"

    def test_set_value(self):
        deck = Deck.named("no-8s")
        high = next(i for i, s in enumerate(deck.sets) if s.high)
        low = next(i for i, s in enumerate(deck.sets) if not s.high)
        assert Game(SIX, dealer=0).set_value(high) == 1
        doubled = Game(SIX, dealer=0, rules=Rules(high_double=True))
        assert (doubled.set_value(high), doubled.set_value(low)) == (2, 1)

    @pytest.mark.parametrize(
        "kwargs, field, message",
        [
            ({"players": SIX[:3]}, "players", "4 to 12 players"),
            ({"players": tuple(f"P{i}" for i in range(13))}, "players", "4 to 12 players"),
            ({"players": ("Ann", "Bob", "ann", "Dan")}, "players", "two players are called"),
            ({"players": ("Ann", "Bob", "C:t", "Dan")}, "players", "bad player name"),
            ({"players": ("Ann", "Bob", "", "Dan")}, "players", "bad player name"),
            ({"players": ("Ann", "Bob", "Cat\x00", "Dan")}, "players", "bad player name"),
            ({"players": ("Ann", "Bob", "Ca\u200bt", "Dan")}, "players", "bad player name"),
            ({"players": SIX, "teams": (0, 0, 0, 0, 0, 0)}, "teams", "both teams"),
            ({"players": SIX, "teams": (0, 1, 2, 0, 1, 0)}, "teams", "team 0 or 1"),
            ({"players": SIX, "teams": (0, 1)}, "teams", "team 0 or 1"),
            ({"players": SIX, "dealer": 6}, "dealer", "no player has index 6"),
            ({"players": SIX, "dealer": 0, "sizes": (9, 9, 9, 7, 7, 7)}, "sizes", "dealing from Ann"),
            ({"players": SIX, "sizes": (9, 9, 9, 9, 9, 9)}, "sizes", "add up to 54"),
            ({"players": SIX, "sizes": (48, 0, 0, 0, 0, 0)}, "sizes", "at least one card"),
            ({"players": SIX, "sizes": (8, 8, 8)}, "sizes", "at least one card for every player"),
            (
                {"players": tuple(f"P{i}" for i in range(12)), "deck": Deck.named("no-8s", sets=["LS"]), "dealer": 0},
                "deck",
                "fewer than the 12 players",
            ),
        ],
    )
    def test_invalid_games(self, kwargs, field, message):
        with pytest.raises(GameError, match=message) as info:
            Game(**kwargs)
        assert info.value.field == field
