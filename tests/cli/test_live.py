"""``cardlogic live``: typed events grow the belief; bad lines are reported by number and change nothing."""

import io
from pathlib import Path

import pytest

from cardlogic.cli import main
from cardlogic.literature import read_record

SETUP = """Players: Ann Bob Cat Dan
Deck: no-8s
Sets: LS HS LH
Dealer: Bob
Me: Ann
Hand Ann: 3S AS 5H 6H
"""


def run_live(tmp_path, monkeypatch, capsys, typed: str, setup: str = SETUP):
    record = tmp_path / "game.txt"
    record.write_text(setup)
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["live", str(record)])
    out, err = capsys.readouterr()
    return code, out, err


def test_accepted_events_report_only_certainties_not_already_public(tmp_path, monkeypatch, capsys):
    code, out, err = run_live(
        tmp_path,
        monkeypatch,
        capsys,
        "Bob asks Ann for AS: yes\nBob asks Cat for 10S: no\nCat asks Dan for 3S: no\nDan asks Ann for 3S: yes\n",
    )
    assert code == 0 and err == ""
    assert "ok: Bob asks Ann for AS: yes; Bob to move (opponent) (line 8)\n" in out
    assert "ok: Dan asks Ann for 3S: yes; Dan to move (opponent) (line 11)\n" in out
    assert "now certain: Dan holds 10S" in " ".join(
        out.split()
    )  # wrapped at 80 columns; Ann's own deduction: neither she, Bob nor Cat holds it
    assert "holds AS" not in out and "holds 3S" not in out  # these moved in public


def test_rejected_lines_are_numbered_and_change_nothing(tmp_path, monkeypatch, capsys):
    typed = (
        "Ann asks Bob for 5H: yes\n"  # 1: not Ann's turn
        "Bob asks Ann for 2D: no\n"  # 2: 2D is not in play
        "Bob asks Ann for 3S: no\n"  # 3: Ann holds 3S, the answer must be yes
        "Bob asks Cat for KS: no\n"  # 4: fine
        "undo\nundo\n"  # 5, 6: the second has nothing to undo
        "save " + str(tmp_path / "out.txt") + "\n"
    )
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, typed)
    assert code == 1
    *refused, undone = err.splitlines()
    autosave = str(tmp_path / "game.live.txt")
    assert all(line.startswith(autosave + ":") for line in refused)
    assert [line[len(autosave) :].split(":")[1] for line in refused] == ["8", "8", "8"]  # the autosave's lines
    assert undone == "nothing to undo"  # a command's error: no line of the record
    saved = read_record((tmp_path / "out.txt").read_text())
    assert saved.events == []


# Bob and Ann ask each other in turn, all answered no: each ask rules a card out of Bob's hand, until the
# eleventh leaves Bob fewer possible cards than he holds. Only counting deals finds that.
CHAIN = [
    "Bob asks Ann for 2S: no",
    "Ann asks Bob for 4S: no",
    "Bob asks Ann for 9S: no",
    "Ann asks Bob for 10S: no",
    "Bob asks Ann for 2H: no",
    "Ann asks Bob for JS: no",
    "Bob asks Ann for 3H: no",
    "Ann asks Bob for QS: no",
    "Bob asks Ann for 4H: no",
    "Ann asks Bob for 6S: no",
    "Bob asks Ann for 7S: no",
]


def test_contradiction_found_by_inference_is_rejected(tmp_path, monkeypatch, capsys):
    typed = "\n".join(CHAIN) + "\nsave " + str(tmp_path / "out.txt") + "\n"
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, typed)
    assert code == 1 and err.startswith(f"{tmp_path / 'game.live.txt'}:18: no deal is consistent")
    assert len(read_record((tmp_path / "out.txt").read_text()).events) == 10


@pytest.mark.parametrize("bad", ["Players: Ann\n", "Players: Ann Bob Cat Dan\nHand Zed: 2S\n"])
def test_bad_setup_exits_1_with_file_and_line(tmp_path, monkeypatch, capsys, bad):
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, "", setup=bad)
    assert code == 1 and err.startswith(str(tmp_path / "game.txt") + ":")


def test_a_full_record_keeps_every_hand_and_referees_what_is_typed(tmp_path, monkeypatch, capsys):
    full = SETUP + "Hand Bob: 2S 4S 2H 3H\nHand Cat: 5S 6S 9S 4H 7H\nHand Dan: 7S 10S JS QS KS\n# our notes\n"
    typed = "Bob asks Ann for 3S: yes\nBob asks Cat for 5S: no\nBob asks Cat for 7S: no\n"
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, typed, setup=full)
    # Cat holds 5S: Ann cannot know it, but the record's hands say the answer no is impossible
    assert code == 1 and err.startswith(f"{tmp_path / 'game.live.txt'}:13: "), err
    saved = (tmp_path / "game.live.txt").read_text()
    assert saved == full + "\nBob asks Ann for 3S: yes\nBob asks Cat for 7S: no\n"
    assert list(read_record(saved).hands) == [0, 1, 2, 3]


MINI = (Path(__file__).resolve().parents[2] / "examples" / "mini.txt").read_text()
"""Ann's view of eight events of the mini game; Ann is to move."""


def test_a_command_with_too_many_words_gets_its_own_usage(tmp_path, monkeypatch, capsys):
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, "why 2h 3h\nlog 1 2\n", setup=MINI)
    assert code == 1
    assert err.splitlines() == ["why needs one card: why CARD", "log takes a number of events: log or log N"]


def test_a_commands_error_is_its_message_alone_and_a_refused_event_keeps_its_line(tmp_path, monkeypatch, capsys):
    """``save`` and ``why`` are commands, not lines of the record: their errors carry no autosave line."""
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my own notes\n")
    typed = ["save", f"save {foreign}", "why", "why 2d", "log x", "ann dan 2h -", "Dan asks Ann for 2D: no", "why"]
    code, out, err = run_live(tmp_path, monkeypatch, capsys, "\n".join(typed) + "\n", setup=MINI)
    assert code == 1
    autosave = tmp_path / "game.live.txt"
    assert err.splitlines() == [
        "save needs a file name: save FILE, or save --force FILE to replace another file",
        f"{foreign} already exists and holds something other than this game's record: not written; --force replaces it",
        "why needs one card: why CARD",
        "2D is not in play in this deck",
        "log takes a number of events: log or log N",
        f"{autosave}:18: 2D is not in play in this deck",  # the line 'Dan asks Ann for 2D: no' would have taken
        "why needs one card: why CARD",
    ]
    assert "ok: Ann asks Dan for 2H: no; Dan to move (opponent) (line 17)" in out
    assert foreign.read_text() == "my own notes\n"
    assert len(read_record(autosave.read_text()).events) == 9


def test_a_claim_out_of_turn_gets_the_turn_error_at_once(tmp_path, monkeypatch, capsys):
    typed = "dan claims ls void cat 2s\ndan claims ls\ndan asks ann for 2s: no\n"
    code, out, err = run_live(tmp_path, monkeypatch, capsys, typed, setup=MINI)
    assert code == 1
    assert [line.split(": ", 1)[1] for line in err.splitlines()] == ["it is Ann's turn, not Dan's"] * 3
    assert "outcome?" not in out
    assert len(read_record((tmp_path / "game.live.txt").read_text()).events) == 8


def test_an_opponents_correct_claim_places_every_card_whose_holder_it_forces(tmp_path, monkeypatch, capsys):
    # Dan asked Ann for KS, so Dan lacks it; the claim being correct puts it with Bob, as AS is known to be
    typed = "ann dan 2h -\ndan claims hs ok\ndan claims hs ok dan 9s js qs\n"
    code, _out, err = run_live(tmp_path, monkeypatch, capsys, typed, setup=MINI)
    assert code == 1
    assert err.split(": ", 1)[1].strip() == (
        "Dan claims high-spades => correct: who held 9S JS QS? Type it again naming them: Dan claims high-spades ok "
        "bob 9S ..."
    )
    saved = (tmp_path / "game.live.txt").read_text().splitlines()
    assert saved[-1] == "Dan claims high-spades: Dan 9S 10S JS QS; Bob KS AS => correct"


def test_on_a_teammate_s_turn_the_advice_waits_and_only_claims_would_show(tmp_path, monkeypatch, capsys):
    code, out, err = run_live(tmp_path, monkeypatch, capsys, "ann dan 2h -\ndan cat 9s -\nadvise\n", setup=MINI)
    assert code == 0, err
    after_ask = out.split("Cat to move (my teammate) (line 18)", 1)[1]
    glance, advice = after_ask.split("\nCat to move (my teammate)\n", 1)
    assert "Recommendation" not in glance and "best asks" not in glance  # no claim of the team is worth making
    assert advice.startswith("Recommendation: wait: Cat is to move\n")


def test_a_pipe_gets_each_line_whole(tmp_path, monkeypatch, capsys):
    """Through a pipe (a program reading live's answers) no line is wrapped, however long: the status line of a
    twelve-player table is one line, as every message is."""
    players = "Annabel Bartholomew Cassandra Dominic Evangeline Ferdinand Gwendolyn Horatio Isadora Jeremiah Kat Leo"
    setup = f"Players: {players}\nDeck: no-8s\nDealer: Leo\nMe: Annabel\nHand Annabel: 3S AS 5H 6H\n"
    code, out, err = run_live(tmp_path, monkeypatch, capsys, "status\n", setup)
    assert (code, err) == (0, "")
    status = [line for line in out.splitlines() if all(name in line for name in players.split())]
    assert status and len(status[0]) > 80
