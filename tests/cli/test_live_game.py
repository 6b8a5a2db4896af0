"""``cardlogic live`` by pipe and in process: a whole typed game, the advice it shows, set-up questions, autosave."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from cardlogic.cli import main
from cardlogic.cli.advise import as_json
from cardlogic.cli.live.console import TypedLines
from cardlogic.cli.live.literature import LiteratureView
from cardlogic.cli.live.session import LiveSession
from cardlogic.constraints import InconsistentError
from cardlogic.literature import (
    Ask,
    Claim,
    Game,
    InvalidEventError,
    Record,
    RecordError,
    format_event,
    read_record,
    write_record,
)
from cardlogic.literature.advice import advise_record
from cardlogic.literature.belief import FIRST_DEALS, FOLLOWED_DEALS, LiteratureBelief
from cardlogic.literature.decks import Deck
from cardlogic.literature.shorthand import Notation
from cardlogic.table.autosave import claim_autosave
from cardlogic.table.core import Incomplete
from cardlogic.table.literature import LiveGame
from tests.cli.scripted import GAME, annes_view, setup_text, typed


def script(record: Record, save_to: str) -> list[str]:
    """The lines a player types for the whole game: a mistyped line first, ``undo 2`` and the two events again
    after the tenth, ``why`` and ``save``."""
    events = [typed(event, GAME) for event in record.events]
    lines = [
        "f ann 9x +",
        *events[:10],
        "undo 2",
        *events[8:10],
        "why 10h",
        "hand",
        "exposed",
        "grid",
        f"save {save_to}",
        *events[10:],
        "advise",
        "quit",
    ]
    return lines


def test_whole_game_through_a_pipe_is_autosaved_and_matches_advise(tmp_path):
    view = annes_view()
    setup, autosave, saved = tmp_path / "game.txt", tmp_path / "auto.txt", tmp_path / "saved.txt"
    setup.write_text(setup_text(view))
    lines = script(view, str(saved))
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "live", str(setup), "--autosave", str(autosave)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1  # the mistyped line
    first_line = read_record(write_record(view)).lines[0]  # the line the first event takes in the autosave
    assert done.stderr.splitlines() == [f"{autosave}:{first_line}: unknown card '9x'"]
    assert read_record(autosave.read_text()) == view
    assert main(["check", str(autosave)]) == 0
    assert len(read_record(saved.read_text()).events) == 10
    out = done.stdout
    assert out.splitlines()[0].endswith("; I am Ann; prior: players.")
    in_hand = replace(view, events=view.events[:10], lines=view.lines[:10]).replay().public.sizes[0]
    assert out.count("undone: ") == 2 and f"my hand, {in_hand} cards" in out  # after the tenth event
    claim = next(i for i, event in enumerate(view.events) if isinstance(event, Claim))  # of high-hearts, in the ten
    claim_line = read_record(write_record(view)).lines[claim]
    assert f"10H (high-hearts): out of play (its set is claimed)\n  in public:\n  line {claim_line}: Eve claims" in out
    result = view.replay().public.result()
    winners = (
        " ".join(GAME.players[p] for p in GAME.members(result.winner)) + " win"
        if result.winner is not None
        else "a tie"
    )
    over = (
        f"ok: {format_event(view.events[-1], GAME)}; the game is over, {result.scores[0]}-{result.scores[1]}: {winners}"
    )
    assert over in " ".join(out.split())  # wrapped at 80
    final = as_json(advise_record(view), GAME)["recommendation"]["reason"]
    last = out.rstrip().split("Recommendation: ")[-1]  # what the last command, advise, printed
    assert last.splitlines()[0] == final and "prior: players" in last


@pytest.mark.parametrize("seed", [6, 19])
def test_live_advice_equals_advise_on_the_record_whenever_my_team_is_to_move(seed):
    # to the last digit under the rules' prior; the players' prior, followed event by event, keeps the deals it
    # weighed, so its figures differ from a fresh read's within their sampling error
    view = annes_view(seed)
    game = LiveGame(Record(view.game, view.observer, dict(view.hands)), prior="rules")
    compared = 0
    for count, event in enumerate(view.events, 1):
        game.push(event)
        if game.observer_decides():
            prefix = Record(view.game, view.observer, dict(view.hands), view.events[:count])
            full = as_json(game.full_advice(), GAME)
            assert full == as_json(advise_record(prefix, prior="rules"), GAME), f"after event {count}"
            glance = {**full, "asks": [{**ask, "leak_bits": None} for ask in full["asks"]]}  # leaks on demand only
            assert as_json(game.advice(), GAME) == glance, f"after event {count}"
            compared += 1
    assert compared >= 5


def test_the_live_players_prior_weighs_more_deals_than_a_record_read_at_once():
    """A belief followed event by event only tops up the deals each event rules out, so the table's weighs
    :data:`FOLLOWED_DEALS` where ``advise`` from a record weighs :data:`FIRST_DEALS`."""
    view = annes_view(0)
    game = LiveGame(Record(view.game, view.observer, dict(view.hands)))
    for event in view.events[:12]:
        game.push(event)
    read = advise_record(Record(view.game, view.observer, dict(view.hands), view.events[:12]))
    live = game.full_advice()
    assert game.belief.deals == FOLLOWED_DEALS > FIRST_DEALS

    def weighed(prior: str) -> int:  # "players (effective sample size 589 of 11,857 deals)"
        found = re.search(r"^players \(effective sample size [\d,]+ of ([\d,]+) deals\)$", prior)
        assert found, prior
        return int(found[1].replace(",", ""))

    assert weighed(live.prior) >= FOLLOWED_DEALS and FIRST_DEALS <= weighed(read.prior) < FOLLOWED_DEALS


def test_short_form_names_by_prefix_and_any_case():
    notation = Notation(GAME)
    ask = Ask(1, 0, Deck.named("no-8s").sets[0].cards[3], True)
    assert notation.parse("b ANN 5s +") == ask
    assert notation.parse("Bo an 5S+") == ask
    assert notation.parse("bob asks a for 5s: yes") == ask
    assert notation.parse("b a 5s").yes is None  # left for the observer's knowledge to fill in
    claim = notation.parse("c claims lh: c 2h 3h; e 4h 5h 6h 7h => correct")
    assert format_event(claim, GAME) == "Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct"
    assert notation.parse("f passes to d") == notation.parse("Fay passes to Dan")


@pytest.mark.parametrize(
    "text, message",
    [
        ("d a 5s", "could be Dan or Dave"),
        ("z a 5s +", "unknown player 'z'"),
        ("b a 9d +", "9D is not in play"),
        ("b a 5s maybe", "the answer must be + (yes) or - (no)"),
        ("hello", "not an event: 'hello'"),
    ],
)
def test_short_form_mistakes_say_what_is_wrong(text, message):
    game = Game(("Ann", "Bob", "Cat", "Dan", "Eve", "Dave"), deck=GAME.deck, dealer=5)
    with pytest.raises(InvalidEventError, match=re.escape(message)):
        Notation(game).parse(text)


def mini() -> LiveGame:
    """Ann's game of ``examples/mini.txt``, 4 players, Ann to move."""
    return LiveGame(read_record((Path(__file__).parents[2] / "examples" / "mini.txt").read_text()))


def test_the_answer_live_asks_for_reads_as_a_short_form_answer():
    """An ask typed without its answer is answered as the short form's answer is typed (``y`` and ``n`` too), and a
    wrong answer is refused in the same words."""
    game = mini()
    with pytest.raises(Incomplete) as asked:
        game.parse("ann dan 2h")
    assert [asked.value.complete(word).yes for word in ("y", "N", "+", "no")] == [True, False, True, False]
    with pytest.raises(InvalidEventError, match=re.escape("the answer must be + (yes) or - (no), not 'maybe'")):
        asked.value.complete("maybe")
    with pytest.raises(InvalidEventError, match=re.escape("the answer must be + (yes) or - (no), not 'maybe'")):
        game.parse("ann dan 2h maybe")


def test_a_claim_of_my_team_sure_to_be_wrong_proposes_each_card_at_its_likeliest_holder():
    """Bob holds AS, so Ann's claim of high-spades is sure to be wrong: it proposes the cards where they likeliest
    are, as the page's claim sheet does, not every card Ann cannot place in her own hand."""
    game = mini()
    with pytest.raises(Incomplete) as asked:
        game.parse("ann claims hs")
    assert asked.value.question.startswith("Ann claims high-spades: Cat 9S JS QS KS; Ann 10S AS, P(correct) 0.00:")
    claim = asked.value.complete("opp bob 9s 10s js qs ks")
    assert claim.assignment == game.claim_suggestion(0, claim.set_index).assignment


def test_log_of_no_events_is_refused_as_undo_of_none_is():
    """``log 0`` said "no events yet" of a game with events."""
    game = mini()
    with pytest.raises(ValueError, match=re.escape("log N needs N of at least 1, not 0")):
        game.log(0)
    assert [line for line, _ in game.log(2)] == [15, 16]


def test_grid_and_exposed_say_when_there_is_nothing_to_show():
    """Once every set is claimed, ``grid`` and ``exposed`` say so: they printed tables of no rows under long
    captions."""
    game = LiveGame(annes_view())
    assert game.status().over
    out = io.StringIO()
    console = Console(file=out, width=80)
    session = LiveSession(game, LiteratureView(game, console), TypedLines(), console=console)
    for command in ("grid", "exposed"):
        session.handle(command)
    assert out.getvalue().splitlines() == [
        "no card is in play: every set is claimed",
        "my hand is empty: there is nothing of it to work out",
    ]


def test_each_typed_line_is_told_event_or_command_once(monkeypatch, capsys):
    """The loop decides once whether a line is an event (which a refusal then reports by its line) or a command."""
    game = mini()
    console = Console(file=io.StringIO(), width=80)
    session = LiveSession(game, LiteratureView(game, console), TypedLines(), console=console)
    told = []
    monkeypatch.setattr(session, "is_event", lambda text: told.append(text) or LiveSession.is_event(session, text))
    typed_lines = ["ann dan 2h -", "zed dan 2h -", "status", "why 9x", "undo"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(typed_lines) + "\n"))
    assert session.run() == 1
    assert told == typed_lines
    assert capsys.readouterr().err.splitlines() == [
        "<input>:18: unknown player 'zed' (players: Ann Bob Cat Dan)",
        "unknown card '9x'",
    ]


def test_setup_questions_check_each_answer_and_ask_again(tmp_path, monkeypatch, capsys):
    answers = [
        "Ann Bob",
        "Ann Bob Cat Dan",
        "no-8s LS HS LH",
        "Zed",
        "bob",
        "bluff=maybe",
        "",
        "an",
        "3S AS 5H",
        "3s as 5h 6h",
        "b a as +",
        "quit",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    autosave = tmp_path / "new.txt"
    assert main(["live", "--autosave", str(autosave)]) == 0  # refused answers are asked again, not errors
    out, err = capsys.readouterr()
    assert [line.split(":")[1] for line in err.splitlines()] == ["1", "4", "6", "9"]
    assert "Your hand (4 cards):" in out
    assert read_record(autosave.read_text()) == read_record(
        "Players: Ann Bob Cat Dan\nSets: LS HS LH\nDealer: Bob\nMe: Ann\nHand Ann: 3S AS 5H 6H\n\n"
        "Bob asks Ann for AS: yes\n"
    )


def test_setup_cut_short_exits_1(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann Bob Cat Dan\n"))
    assert main(["live", "--autosave", str(tmp_path / "new.txt")]) == 1
    assert "before the set-up was complete" in capsys.readouterr().err


def test_default_autosave_is_next_to_the_record_and_resuming_an_autosave_reuses_it(tmp_path):
    record = tmp_path / "game.txt"

    def claimed(resumed):
        path, lock = claim_autosave(resumed, None, lambda text: text == "this game")
        lock.release()
        return path

    assert claimed(record) == tmp_path / "game.live.txt"
    (tmp_path / "game.live.txt").write_text("earlier session")
    assert claimed(record) == tmp_path / "game.live-2.txt"
    resumed = tmp_path / "game.live.txt"
    assert claimed(resumed) == tmp_path / "game.live-2.txt"  # it holds another game: left alone
    resumed.write_text("this game")
    assert claimed(resumed) == resumed


def test_an_event_that_cannot_be_autosaved_is_refused_and_changes_nothing(tmp_path):
    view = annes_view()
    folder = tmp_path / "gone"
    folder.mkdir()
    game = LiveGame(Record(view.game, view.observer, dict(view.hands)), autosave=str(folder / "auto.txt"))
    game.push(view.events[0])
    os.rename(folder, tmp_path / "moved")
    with pytest.raises(OSError):
        game.push(view.events[1])
    assert game.public.history == (view.events[0],)
    assert game.spectator is not None and game.spectator.public.history == (view.events[0],)


def test_an_autosave_that_cannot_be_written_is_named_with_the_reason(tmp_path, capsys):
    """It said ``[Errno 2] No such file or directory: '.../.auto.txt.k3j1x9.tmp'``, a temporary file."""
    folder = tmp_path / "table"
    folder.mkdir()
    autosave = folder / "auto.txt"
    game = mini()
    game.autosave = str(autosave)
    console = Console(file=io.StringIO(), width=80)
    session = LiveSession(game, LiteratureView(game, console), TypedLines(), console=console)
    folder.rename(tmp_path / "moved")
    session.handle("ann dan 2h -")
    session.handle("undo")
    assert capsys.readouterr().err.splitlines() == [
        f"{autosave}:17: {autosave}: No such file or directory: nothing changed",
        f"{autosave}: No such file or directory: nothing changed",
    ]
    assert len(game.events) == 8


def test_an_event_no_deal_explains_names_the_line_it_contradicts_as_a_record_does(tmp_path):
    """Live refused ``dan ann 2h`` after ``Ann asks Dan for 4H: no`` with the constraints' bare "a required event
    cannot have happened"; it names the line it contradicts, as ``cardlogic check`` does on the same record."""
    text = (Path(__file__).parents[2] / "examples" / "mini.txt").read_text() + "Ann asks Dan for 4H: no\n"
    autosave = tmp_path / "mini.live.txt"
    autosave.write_text(text)
    game = LiveGame(read_record(text), autosave=str(autosave), text=text)
    impossible = "Dan asks Ann for 2H: no"
    with pytest.raises(RecordError) as in_a_record:
        LiteratureBelief.from_record(read_record(text + impossible + "\n"), prior="rules")
    with pytest.raises(InconsistentError) as in_live:
        game.push(game.parse("dan ann 2h"))
    assert str(in_live.value) == in_a_record.value.message
    assert in_a_record.value.message.endswith("it contradicts line 17 (Ann asks Dan for 4H: no)")
    assert autosave.read_text() == text  # nothing changed
