"""``cardlogic knektpass ...``: output, messages as RECORD:LINE: message, exit codes, and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlogic.cli import main
from cardlogic.knektpass import read_record

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "knektpass" / "bob.txt"


def run(capsys, *argv):
    code = main(["knektpass", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_writes_a_full_record_that_checks(capsys, write):
    code, out, err = run(capsys, "simulate", "--seed", "4", "--bots", "greedy,random,greedy")
    assert code == 0 and err == ""
    record = read_record(out)
    assert record.is_full and record.stock is not None
    path = write(out)
    assert run(capsys, "check", path) == (0, f"{path}: ok, {len(record.events)} events\n", "")


def test_simulate_is_reproducible_and_refuses_bad_options(capsys):
    assert run(capsys, "simulate", "--seed", "9")[1] == run(capsys, "simulate", "--seed", "9")[1]
    code, _, err = run(capsys, "simulate", "--bots", "clever")
    assert code == 2 and "--bots" in err


def test_check_reports_the_line_of_a_malformed_event_and_of_an_illegal_one(capsys, write):
    text = EXAMPLE.read_text()
    path = write(text + "Bob plays 6X\n")
    code, out, err = run(capsys, "check", path)
    assert (code, out) == (1, "") and err == f"{path}:20: unknown card '6X'\n"
    path = write(text + "Cat plays 6H\n")
    assert run(capsys, "check", path) == (1, "", f"{path}:20: it is Bob's turn, not Cat's\n")


def test_check_finds_a_revoke_that_only_the_tracker_can_see(capsys, write):
    text = EXAMPLE.read_text() + "Bob plays 6H\nCat plays 9H\nCat plays 7S\n"  # Cat showed no spade: a revoke
    path = write(text)
    code, _, err = run(capsys, "check", path)
    assert code == 1 and err == f"{path}:22: Cat cannot hold 7S: they showed no spades on line 21\n"


def test_live_refuses_a_full_record_at_the_first_hand_not_the_observers(capsys, write):
    _, full, _ = run(capsys, "simulate", "--seed", "2")
    path = write(full)
    code, out, err = run(capsys, "live", path)
    assert (code, out) == (1, "") and err.startswith(f"{path}:6: a full record (every hand): live follows one player's")
    mine = full.replace("Hand Ann:", "Me: Bob\nHand Ann:")  # Ann's hand still makes it more than Bob's view
    path = write(mine)
    code, out, err = run(capsys, "live", path)
    assert (code, out) == (1, "") and err.startswith(f"{path}:7: a full record (every hand)")


def test_view_writes_one_players_record(capsys, write):
    _, full, _ = run(capsys, "simulate", "--seed", "2")
    path = write(full)
    code, out, _ = run(capsys, "view", path, "--as", "cat", "--events", "3")
    view = read_record(out)
    assert code == 0 and view.observer == 2 and set(view.hands) == {2} and len(view.events) == 3
    code, _, err = run(capsys, "view", path, "--as", "Dan")
    assert code == 1 and "unknown player 'Dan'" in err


def test_belief_json_gives_each_card_in_play_a_distribution_over_the_holders(capsys):
    code, out, _ = run(capsys, "belief", str(EXAMPLE), "--json")
    data = json.loads(out)
    assert code == 0 and data["observer"] == "Bob" and data["method"] == "exact"
    assert data["holders"] == ["Ann", "Bob", "Cat", "discards", "stock"]
    for row in data["cards"].values():
        assert sum(row.values()) == pytest.approx(1.0)
    assert data["cards"]["AC"]["Bob"] == 1.0 and data["cards"]["KH"]["Cat"] + data["cards"]["KH"]["discards"] == 1.0
    assert "6S" not in data["cards"]  # played


def test_belief_prints_a_table(capsys):
    code, out, _ = run(capsys, "belief", str(EXAMPLE))
    assert code == 0 and "Bob's view: where the cards lie" in out and "discards" in out and "Bob (me)" in out
    assert "exact over 1,873,980,108,000 consistent deals" in out


def test_belief_says_from_how_many_deals_it_sampled_as_literature_s_does(capsys):
    code, out, _ = run(capsys, "belief", str(EXAMPLE), "--method", "sample", "--samples", "500")
    assert code == 0 and "\nsampled from 500 deals; prior: rules\n" in out  # it said "sample; prior: rules"


def test_belief_and_advise_say_which_prior_answered(capsys):
    for command in ("belief", "advise"):  # the rules' too, the default
        code, out, _ = run(capsys, command, str(EXAMPLE), *(("--samples", "8") if command == "advise" else ()))
        assert code == 0 and "prior: rules" in out
    code, out, _ = run(capsys, "belief", str(EXAMPLE), "--json")
    assert code == 0 and json.loads(out)["prior"] == "rules"
    code, out, _ = run(capsys, "belief", str(EXAMPLE), "--prior", "players")
    assert code == 0 and "prior: players (effective sample size" in " ".join(out.split())
    code, out, _ = run(capsys, "advise", str(EXAMPLE), "--prior", "players", "--json", "--samples", "8")
    assert code == 0 and json.loads(out)["prior"].startswith("players (effective sample size")
    code, out, _ = run(capsys, "advise", str(EXAMPLE), "--prior", "players", "--samples", "8")
    assert code == 0 and "prior: players (effective sample size" in out


def test_the_commands_know_every_bot_and_prior_without_importing_them():
    from cardlogic.cli import knektpass as command
    from cardlogic.knektpass import belief, bots

    assert tuple(bots.BOTS) == command.BOT_NAMES
    assert (command.PRIORS, command.DEFAULT_PRIOR) == (belief.PRIORS, belief.DEFAULT_PRIOR)


def test_advise_json_lists_the_options_best_first(capsys):
    code, out, _ = run(capsys, "advise", str(EXAMPLE), "--json", "--samples", "16")
    data = json.loads(out)
    assert code == 0 and data["player"] == "Bob" and data["phase"] == "play" and data["samples"] == 16
    assert {o["event"] for o in data["options"]} == {"Bob plays 6H", "Bob plays 7H"}  # he must trump
    assert data["best"] == data["options"][0]["event"]
    assert [o["points"] for o in data["options"]] == sorted(o["points"] for o in data["options"])


def test_advise_text_sorts_the_hand_and_explains_the_sign(capsys):
    code, out, _ = run(capsys, "advise", str(EXAMPLE))
    assert code == 0 and "best: Bob plays" in out
    assert "Bob holds 7H 6H AD 7D AC;" in out  # trumps highest first, then each suit
    assert "expected points: Bob's change of points, counted down to 0: minus is good" in out


def test_advise_on_another_players_turn_names_who_is_to_move(capsys, write):
    path = write(EXAMPLE.read_text() + "Bob plays 6H\n")
    assert run(capsys, "advise", path) == (
        0,
        "Cat is to move (the play): nothing for Bob to decide until their turn.\n",
        "",
    )
    code, out, _ = run(capsys, "advise", path, "--json")
    assert code == 0 and json.loads(out) == {"player": "Bob", "phase": "play", "to_move": "Cat", "options": []}


def test_advise_errors(capsys, write):
    path = write("\n".join(line for line in EXAMPLE.read_text().splitlines() if not line.startswith(("Me", "Hand"))))
    assert run(capsys, "advise", path)[2] == f"{path}: advice needs the player it is for: a Me header\n"


def test_a_missing_file_is_reported_without_a_traceback(capsys):
    code, _, err = run(capsys, "check", "/no/such/deal.txt")
    assert code == 1 and err.startswith("/no/such/deal.txt: ") and "Traceback" not in err


def test_tournament_json_sums_wins_per_bot(capsys):
    code, out, _ = run(capsys, "tournament", "--bots", "greedy,random,random", "--games", "3", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 3 and set(data["wins"]) == {"greedy", "random"}
    assert sum(data["wins"].values()) + data["unfinished"] == 3


def test_tournament_text_shows_wilson_intervals(capsys):
    code, out, _ = run(capsys, "tournament", "--bots", "greedy,random", "--games", "2")
    assert code == 0 and "95% interval" in out and "greedy" in out
    code, _, err = run(capsys, "tournament", "--bots", "greedy,clever")
    assert code == 2 and "--bots" in err


def test_the_docs_show_the_example_record_and_every_example_checks(capsys):
    page = (EXAMPLE.parents[2] / "docs" / "knektpass.md").read_text(encoding="utf-8")
    assert f"```text\n{EXAMPLE.read_text()}```" in page
    for path in sorted(EXAMPLE.parent.glob("*.txt")):
        assert run(capsys, "check", str(path))[0] == 0
        assert run(capsys, "belief", str(path))[0] == 0


MATCH = """\
Players: Ann Bob
Dealer: Bob
Trump: 9H
Me: Ann
Hand Ann: AS KS QS JS 6D

Bob leaves the trump
Ann folds
Bob folds
Deal 2: Trump 6S; Hand Ann: 7S 8S 9S 10S 6H
"""


def test_the_commands_read_a_match_that_live_saved(capsys, write):
    path = write(MATCH, "match.live.txt")
    assert run(capsys, "check", path)[:2] == (0, f"{path}: ok, 3 events in 2 deals\n")
    code, out, _ = run(capsys, "advise", path)
    assert code == 0 and "Bob is to move" in out  # the deal in play, the second
    code, out, _ = run(capsys, "belief", path, "--json")
    assert code == 0 and json.loads(out)
    wrong = write(MATCH + "Ann plays 7S\n", "wrong.live.txt")
    code, _, err = run(capsys, "check", wrong)
    assert code == 1 and err.startswith(f"{wrong}:11: ")
