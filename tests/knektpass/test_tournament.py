"""Tournaments: one seat per listed bot, seats rotated, wins summed per bot, the same results with any --jobs."""

from __future__ import annotations

import pytest

from cardlogic.knektpass import Game
from cardlogic.knektpass.tournament import play_game, tournament


def test_seats_rotate_between_games_and_every_game_is_played_to_the_end():
    result = tournament(("random", "random", "greedy"), games=6, seed=2)
    assert [r.seats for r in result.results] == [
        ("random", "random", "greedy"),
        ("random", "greedy", "random"),
        ("greedy", "random", "random"),
    ] * 2
    for game in result.results:
        assert game.winner is not None and min(game.points) <= 0
        assert game.points[game.winner] == min(game.points)
    assert result.unfinished == 0


def test_wins_are_summed_per_bot_name_and_reported_with_wilson_intervals():
    result = tournament(("greedy", "random", "random"), games=6, seed=3)
    summary = result.as_json()
    assert summary["games"] == 6 and set(summary["wins"]) == {"greedy", "random"}
    assert sum(summary["wins"].values()) == 6 - summary["unfinished"]
    for rate in summary["rates"].values():
        assert rate["low"] <= rate["rate"] <= rate["high"]
    assert summary["rates"]["random"]["share"] == pytest.approx(2 / 3)


def test_results_do_not_depend_on_the_number_of_processes():
    one = tournament(("greedy", "random"), games=4, seed=5, jobs=1)
    two = tournament(("greedy", "random"), games=4, seed=5, jobs=2)
    assert one.results == two.results


def test_a_game_is_reproducible_from_its_seed():
    game = Game(("Ann", "Bob", "Cat"))
    assert play_game(game, ("greedy", "random", "random"), 7) == play_game(game, ("greedy", "random", "random"), 7)


def test_unknown_bots_and_too_many_seats_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        tournament(("greedy", "clever"), games=1)
    with pytest.raises(ValueError, match="players"):
        tournament(("random",) * 11, games=1)
