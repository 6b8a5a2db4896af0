"""The check, simulate and view commands: output, messages and exit codes."""

from pathlib import Path

import pytest

from cardlogic.cli import main
from cardlogic.literature import State, read_record

from .helpers import MINI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestCheck:
    def test_a_good_record(self, capsys, write):
        path = write(MINI.format(rules="") + "\nDan asks Ann for 9S: yes\n")
        assert run(capsys, "check", path) == (0, f"{path}: ok, 1 event\n", "")

    def test_every_malformed_line_and_the_first_illegal_event_are_reported(self, capsys, write):
        path = write(
            MINI.format(rules="")
            + """
Dan asks Ann for 9S: no
Dan asks Ann for 9X: yes
Ann asks Bob for 4S: yes
Ann asks Bob for 5S: yes
Dan asks Cat for 6S
"""
        )
        code, out, err = run(capsys, "check", path)
        assert code == 1 and out == ""
        assert err.splitlines() == [
            (
                f"{path}:10: the answer no is impossible: 9S is with Ann (and 2 later events that follow from it were "
                "not checked)"
            ),
            f"{path}:11: unknown card '9X'",
            f"{path}:14: the ask needs its answer: ': yes' or ': no'",
        ]

    def test_a_broken_set_up(self, capsys, write):
        path = write("Players: Ann Bob Cat\nAnn asks Bob for 2S: no\n")
        assert run(capsys, "check", path) == (1, "", f"{path}:1: Literature needs 4 to 12 players, not 3\n")

    def test_an_unreadable_file(self, capsys, tmp_path):
        path = str(tmp_path / "missing.txt")
        assert run(capsys, "check", path) == (1, "", f"{path}: No such file or directory\n")

    def test_a_binary_file(self, capsys, tmp_path):
        path = tmp_path / "binary.txt"
        path.write_bytes(b"\xff\xfe\x00")
        assert run(capsys, "check", str(path)) == (
            1,
            "",
            f"{path}:1: not UTF-8 text (byte 0xff): save the record as UTF-8\n",
        )

    @pytest.mark.parametrize("name", ["six-players.txt", "ann-view.txt", "mini.txt"])
    def test_the_examples(self, capsys, name):
        code, out, err = run(capsys, "check", str(EXAMPLES / name))
        assert code == 0 and "ok" in out and err == ""


class TestSimulate:
    def test_a_full_record_with_dealer_and_every_hand(self, capsys, write):
        code, out, err = run(capsys, "simulate", "--players", "5", "--seed", "3")
        assert code == 0 and err == ""
        record = read_record(out)
        assert record.is_full and record.observer is None and record.game.dealer is not None
        assert record.game.players == ("Ann", "Bob", "Cat", "Dan", "Eve") and "Me:" not in out
        assert isinstance(record.replay(), State) and record.replay().is_over
        assert run(capsys, "simulate", "--players", "5", "--seed", "3")[1] == out
        assert run(capsys, "check", write(out))[0] == 0

    def test_options(self, capsys):
        code, out, _ = run(
            capsys,
            "simulate",
            "--players",
            "12",
            "--seed",
            "1",
            "--deck",
            "fours",
            "--sets",
            "2",
            "A",
            "k",
            "--rules",
            "wrong-claim=opponents bluff=on high-double=on",
        )
        record = read_record(out)
        assert code == 0 and [s.name for s in record.game.deck.sets] == ["twos", "kings", "aces"]
        assert (
            str(record.game.rules)
            == "wrong-claim=opponents bluff=on must-declare=off high-double=on after-claim=continue claim-anytime=off"
        )
        assert record.check() == []

    @pytest.mark.parametrize(
        "args, message",
        [
            (["--sets", "XX"], "unknown set 'XX'"),
            (["--rules", "bluff=maybe"], "bluff must be on or off"),
            (["--players", "4", "--sets", "LS"], None),
        ],
    )
    def test_bad_options(self, capsys, args, message):
        code, out, err = run(capsys, "simulate", *args)
        if message is None:
            assert code == 0 and read_record(out).check() == []
        else:
            assert code == 2 and out == "" and message in err

    def test_player_count_out_of_range(self, capsys):
        with pytest.raises(SystemExit) as info:
            main(["simulate", "--players", "13"])
        assert info.value.code == 2


class TestView:
    def test_a_view(self, capsys, write):
        path = write(MINI.format(rules="") + "\nDan asks Ann for 9S: yes\nDan asks Cat for 10S: no\n")
        code, out, err = run(capsys, "view", path, "--as", "cat")
        assert code == 0 and err == ""
        assert "Me: Cat\nHand Cat: 6S 7S JS 6H\n\nDan asks Ann for 9S: yes\n" in out and "Hand Ann" not in out
        assert read_record(out) == read_record(open(path).read()).view_as("Cat")
        code, out, _ = run(capsys, "view", path, "--as", "Cat", "--events", "1")
        assert code == 0 and out.endswith("Dan asks Ann for 9S: yes\n")

    def test_problems(self, capsys, write, tmp_path):
        path = write(MINI.format(rules="") + "\nDan asks Ann for 9S\n")
        assert run(capsys, "view", path, "--as", "Ann") == (
            1,
            "",
            f"{path}:10: the ask needs its answer: ': yes' or ': no'\n",
        )
        path = write(MINI.format(rules=""))
        expected = f"{path}: unknown player 'Zed' (players: Ann Bob Cat Dan)\n"
        assert run(capsys, "view", path, "--as", "Zed")[2] == expected
        missing = str(tmp_path / "missing.txt")
        assert run(capsys, "view", missing, "--as", "Ann") == (1, "", f"{missing}: No such file or directory\n")

    def test_the_example_view_is_anns_turn_in_the_middle_of_the_game(self):
        full = read_record((EXAMPLES / "six-players.txt").read_text())
        view = read_record((EXAMPLES / "ann-view.txt").read_text())
        assert view.observer == 0 and view.events == full.events[: len(view.events)]
        assert view.hands == {0: full.hands[0]}
        state = view.replay()
        assert state.to_move == 0 and not state.is_over and state.public.claimed
        assert len(view.events) < len(full.events)
