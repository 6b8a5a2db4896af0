"""``cardlogic check``: a record passes only if every event is legal and some deal explains them all.

Each impossible record is rejected at its first impossible line, naming the earlier lines it
contradicts where the constraint model can find them; a problem's follow-on lines are counted,
not listed.
"""

import io
from pathlib import Path

from cardlogic.cli import main
from cardlogic.inference import InferenceError
from cardlogic.literature.belief import LiteratureBelief

from .helpers import BRIEF

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ANN_VIEW = (EXAMPLES / "ann-view.txt").read_text(encoding="utf-8")  # 57 lines, Ann to move
MINI_VIEW = (EXAMPLES / "mini.txt").read_text(encoding="utf-8")  # 16 lines, Ann to move

# Ann's view of a four-player game dealt by Dan: Dan holds 4 of the 13 cards Ann does not.
SHORT_HAND = """\
Players: Ann Bob Cat Dan
Sets: LS HS LH
Dealer: Dan
Me: Ann
Hand Ann: 3S AS 5H 6H 7H

Dan asks Ann for 2S: no
Ann asks Dan for 4S: no
Dan asks Ann for 5S: no
Ann asks Dan for 6S: no
Dan asks Ann for 9S: no
Ann asks Dan for 10S: no
Dan asks Ann for JS: no
Ann asks Dan for QS: no
Dan asks Ann for 2H: no
"""


def check(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    return code, out.replace(str(path), "FILE"), err.replace(str(path), "FILE")


def test_a_set_named_twice_is_refused_at_its_line(tmp_path, capsys):
    repeated = SHORT_HAND.replace("Sets: LS HS LH", "Sets: LS HS LH LS")
    assert check(tmp_path, capsys, repeated) == (1, "", "FILE:2: the set low-spades is named twice\n")


def test_a_yes_after_a_no_with_nothing_moved_since(tmp_path, capsys):
    # Line 49 is "Ann asks Fay for JS: no"; JS has not moved since.
    code, out, err = check(tmp_path, capsys, ANN_VIEW + "Ann asks Fay for JS: yes\n")
    assert (code, out) == (1, "")
    assert err == "FILE:58: JS can be nowhere: Fay ruled out by line 49; Bob, Dan and Eve by line 52\n"


def test_a_reveal_that_contradicts_an_earlier_ask(tmp_path, capsys):
    # Line 10 is "Bob asks Cat for 10S: no"; the wrong claim's reveal puts 10S at Cat.
    claim = "Ann claims HS: Cat 9S 10S JS QS KS AS => opponents (Cat 10S KS; Bob AS JS; Dan 9S QS)\n"
    code, out, err = check(tmp_path, capsys, MINI_VIEW + claim)
    assert (code, out, err) == (1, "", "FILE:17: 10S can be nowhere: Bob and Cat ruled out by line 10\n")


def test_a_reveal_that_leaves_an_earlier_askers_set_empty(tmp_path, capsys):
    # The README's example before it was fixed: Dan asked for 9S (line 11), so held another high spade
    # (nothing has moved since), yet the reveal on line 14 gives Dan none.
    assert check(tmp_path, capsys, BRIEF) == (
        1,
        "",
        "FILE:14: AS can be nowhere: it contradicts line 11 (Dan asks Cat for 9S: no)\n",
    )
    fixed = BRIEF.replace("Cat QS KS AS; Bob JS)", "Cat QS KS; Dan AS; Bob JS)")
    assert check(tmp_path, capsys, fixed) == (0, "FILE: ok, 7 events\n", "")


def test_a_hand_size_that_cannot_be_met(tmp_path, capsys):
    assert check(tmp_path, capsys, SHORT_HAND) == (0, "FILE: ok, 9 events\n", "")
    # Now only 7S, KS and 4H can be among Dan's four cards.
    code, out, err = check(tmp_path, capsys, SHORT_HAND + "Ann asks Dan for 3H: no\nDan asks Ann for 4H: no\n")
    assert (code, out) == (1, "")
    assert err == (
        "FILE:16: no deal is consistent with this event: Dan was dealt 4 cards, but lines 7-16 and "
        "Ann's hand leave only 3 that can have been Dan's "
        "(and 1 later event that follows from it was not checked)\n"
    )


def test_one_wrong_pass_is_one_message_with_its_follow_on_count(tmp_path, capsys):
    full = (EXAMPLES / "six-players.txt").read_text(encoding="utf-8")
    assert "\nEve passes to Cat\n" in full
    code, out, err = check(tmp_path, capsys, full.replace("\nEve passes to Cat\n", "\nEve passes to Bob\n"))
    assert (code, out) == (1, "")
    assert err == (
        "FILE:75: Eve cannot pass to Bob: not a teammate (and 36 later events that follow from it were not checked)\n"
    )


def test_a_malformed_event_line_stops_the_replay_but_not_the_reading(tmp_path, capsys):
    record = MINI_VIEW.replace("Cat asks Dan for 3S: no", "Cat asks Dan for 3X: no") + "Ann asks Bob for 2Z: no\n"
    code, out, err = check(tmp_path, capsys, record)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "FILE:11: unknown card '3X' (and 5 later events that follow from it were not checked)",
        "FILE:17: unknown card '2Z'",
    ]


def test_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(MINI_VIEW + "Ann asks Fay for 2S: no\n"))
    assert main(["check", "-"]) == 1
    assert capsys.readouterr() == ("", "<stdin>:17: unknown player 'Fay' (players: Ann Bob Cat Dan)\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(MINI_VIEW))
    assert main(["check", "-"]) == 0
    assert capsys.readouterr() == ("<stdin>: ok, 8 events\n", "")


def test_a_record_inference_cannot_decide_is_not_passed(tmp_path, capsys, monkeypatch):
    def undecided(record, **options):
        raise InferenceError("no deal satisfying every clause found in 1000 repair steps")

    monkeypatch.setattr(LiteratureBelief, "from_record", undecided)
    assert check(tmp_path, capsys, MINI_VIEW) == (
        1,
        "",
        (
            "FILE: cannot tell whether some deal explains the record: "
            "no deal satisfying every clause found in 1000 repair steps\n"
        ),
    )
