"""``cardlogic knektpass live`` in a pseudo-terminal with short forms only: a whole match deal after deal, with
undo, ``why``, advice on my turns, a resume from the autosave with the typed history; its output fits 80
columns at 3 to 5 players; a SIGKILL at random moments loses no accepted event."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

import cardlogic.cli.live.knektpass  # noqa: F401 (imported before forking, as the command imports it)
from cardlogic.cards import Card
from cardlogic.cli.knektpass_advice import print_advice
from cardlogic.cli.live.console import TypedLines
from cardlogic.cli.live.knektpass import KnektpassView
from cardlogic.cli.live.session import LiveSession
from cardlogic.knektpass import Game, Rules
from cardlogic.knektpass.match_record import MatchRecord, read_match, write_match
from cardlogic.table.knektpass import LiveMatch
from tests.cli.knektpass_scripted import bobs_match, short_form
from tests.cli.test_live_kill import Trials, run_until_killed
from tests.cli.test_live_widths import parted
from tests.knektpass.test_live_match import typed_in

pexpect = pytest.importorskip("pexpect")


def spawn(*args: str, command: Sequence[str] = ("knektpass", "live"), cwd: Path | None = None) -> pexpect.spawn:
    """``cardlogic COMMAND ARGS`` in an 80x24 pseudo-terminal."""
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")  # pexpect answers no cursor-position requests
    return pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", *command, *args],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        cwd=None if cwd is None else str(cwd),
    )


def type_events(child: pexpect.spawn, match: MatchRecord, first: int, last: int) -> None:
    for event in match.events[first:last]:
        line, answer = short_form(event)
        child.sendline(line)
        if answer is not None:
            child.expect(r"\?")
            child.sendline(answer)
        child.expect_exact("ok: ")


def test_a_whole_match_in_short_forms_with_undo_why_and_a_resume(tmp_path):
    match = bobs_match()
    setup, autosave = tmp_path / "deal.txt", tmp_path / "match.live.txt"
    setup.write_text(write_match(MatchRecord(match.first)))
    child = spawn(str(setup), "--autosave", str(autosave))
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact("Type 'help' for help.")
    half = len(match.events) // 2
    type_events(child, match, 0, 10)
    child.sendline("undo 2")
    child.expect_exact("8 events;")
    type_events(child, match, 8, half)
    card = str(LiveMatch(read_match(autosave.read_text())).hand()[0])
    child.sendline(f"why {card.lower()}")
    child.expect_exact(f"{card}: in my hand")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, transcript.getvalue()[-2000:]
    assert read_match(autosave.read_text()).events == match.events[:half]
    assert "advice: " in transcript.getvalue() and "(minus is good)" in transcript.getvalue()

    child = spawn(str(autosave))  # the autosave itself goes on
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact(f"{half} events so far")
    child.send("\x1b[A")  # Up: the last line typed before
    child.expect_exact("quit")
    child.send("\x1b[A")
    child.expect_exact(f"why {card.lower()}")
    child.send("\x15")  # Ctrl-U clears it
    type_events(child, match, half, len(match.events))
    child.expect_exact("the game is over")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, transcript.getvalue()[-2000:]
    assert "deal 1 over: " in transcript.getvalue() or "deal 2 over: " in transcript.getvalue()
    assert read_match(autosave.read_text()) == read_match(write_match(match))


def test_a_new_match_asks_its_set_up_and_refuses_a_bad_answer(tmp_path):
    answers = ["Ann Bob Cat", "cat", "", "bob", "kh", "6h 7h 7c", "6h 7h 7c 8c 10c", "cat takes", "ann in", "quit"]
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "knektpass", "live"],
        input="\n".join(answers) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert done.stderr.splitlines() == ["<input>:6: Bob was dealt 5 cards, not 3"]
    assert "ok: Ann plays; Bob to move (me) (line 10)" in done.stdout
    assert "advice: " in done.stdout  # Bob decides: play or fold
    (autosave,) = tmp_path.glob("game-*.live.txt")
    match = read_match(autosave.read_text())
    assert match.first.hands == {1: tuple(Card.parse(c) for c in ["6H", "7H", "7C", "8C", "10C"])}
    assert len(match.events) == 2


def test_a_next_deal_mid_deal_is_refused_before_my_cards_are_asked_for(tmp_path):
    autosave = tmp_path / "match.live.txt"
    autosave.write_text(typed_in(bobs_match(), 5).text())
    live = LiveMatch(read_match(autosave.read_text()), text=autosave.read_text())
    mover = live.deal.game.players[live.view.to_move or 0]
    done = subprocess.run(
        [sys.executable, "-m", "cardlogic", "knektpass", "live", str(autosave)],
        input="deal 9s\nwhy\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stderr.splitlines() == [
        f"{autosave}:{live.next_line()}: deal 1 is not over: {mover} is to move",
        "why needs one card: why CARD",  # a command's error: no line of the record
    ]
    assert "cards?" not in done.stdout
    assert done.returncode == 1


NAMES = ("Annabel", "Bartholomew", "Cat", "Dan", "Evangeline")
COMMANDS = ["help", "status", "score", "sizes", "log", "log 3", "advise", "grid", "hand", "trick"]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_command_fits_the_width(players, width):
    game = Game(NAMES[:players], Rules())
    match = bobs_match(4, game, deals=1)
    live = typed_in(match, 0)
    for event in match.events:  # on to my first card to play
        if live.observer_decides() and live.view.phase == "play":
            break
        live.push(event)
    assert live.observer_decides() and live.view.phase == "play"
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None, force_terminal=True)
    session = LiveSession(live, KnektpassView(live, console), TypedLines(), console=console)
    for line in [*COMMANDS, *(f"why {card}" for card in live.hand()[:2])]:
        session.handle(line)
    session.advise_if_deciding()
    session.say(session.status_bar())
    print_advice(live.advice(), live.deal, live.hand(), console, live.belief.prior_answered)
    text = out.getvalue()
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, f"{len(too_wide)} lines over {width} columns, e.g. {too_wide[0]!r}"
    assert "…" not in text
    assert not parted(text, game.players)


def test_grid_shows_where_every_card_i_do_not_hold_may_be_in_pages_that_fit():
    """``grid``: P(each holder has the card) for every card in play but mine, as ``knektpass belief`` gives it, in
    pages of holders where they do not all fit (there was no such command)."""
    game = Game(NAMES, Rules())
    match = bobs_match(4, game, deals=1)
    live = typed_in(match, 0)
    out = io.StringIO()
    console = Console(file=out, width=60, highlight=False, color_system=None, force_terminal=True)
    LiveSession(live, KnektpassView(live, console), TypedLines(), console=console).handle("grid")
    text = out.getvalue()
    titles = [line.rstrip() for line in text.splitlines() if "where the cards lie" in line]
    me = game.players[live.observer]
    assert titles == [f"{me}'s view: where the cards lie, page {page} of 2" for page in (1, 2)]
    rows = [line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│")]
    shown = [card for card in rows if card]
    assert shown == 2 * [str(card) for card in live.chances()]
    assert not set(map(str, live.hand())) & set(shown)
    assert all(len(line) <= 60 for line in text.splitlines())
    assert text.count("prior: rules") == 2


TRIALS = 20


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_at_random_moments_never_loses_an_accepted_event(tmp_path):
    match = bobs_match()
    autosave = tmp_path / "match.live.txt"
    rng = random.Random(5)
    typed_in(match, len(match.events))  # compiled once here, so that every forked process starts at once
    kept = 0
    for trial in (trials := Trials(TRIALS, len(match.events) // 2)):
        if kept == len(match.events):
            kept = 0
        if kept == 0:
            autosave.write_text(write_match(MatchRecord(match.first)))
        rest = [line for event in match.events[kept:] for line in _lines(event)]
        printed = run_until_killed(str(autosave), rest, rng.uniform(0.0, 1.5), ["knektpass", "live"])
        accepted = sum(1 for line in printed.splitlines() if line.startswith("ok: "))
        saved = read_match(autosave.read_text())  # whole: it reads, the rename was atomic
        assert saved.events == match.events[: len(saved.events)], f"trial {trial}"
        assert len(saved.events) >= kept + accepted, f"trial {trial}: {accepted} accepted, not all saved"
        kept = len(saved.events)
        trials.accepted += accepted
    assert trials.accepted >= trials.goal  # the kills fell all along the match, not only before the first event


def _lines(event) -> list[str]:
    line, answer = short_form(event)
    return [line] if answer is None else [line, answer]


def test_no_slow_notice_while_i_answer_a_question(tmp_path):
    """A question (which card I put down, my exchange, my next hand) waits for me, not for the solver: however
    long I take to answer, no 'warming up' or 'working on it' is printed over the prompt."""
    record = tmp_path / "deal.txt"
    record.write_text("Players: Ann Bob Cat\nDealer: Bob\nTrump: KH\nMe: Bob\nHand Bob: 6H 7H 7C 8C 10C\n")
    child = spawn(str(record), "--autosave", str(tmp_path / "match.live.txt"))
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact("Bob to move (me)>")
    child.sendline("take")
    child.expect_exact("which card did I put down for the turned KH?")
    asked = len(transcript.getvalue())
    with pytest.raises(pexpect.TIMEOUT):
        child.expect(r"warming up|working on it", timeout=3.5)  # longer than the notice's 2 seconds
    child.sendline("7c")
    child.expect_exact("ok: Bob takes the trump for 7C; Cat to move (opponent) (line 7)")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    answered = transcript.getvalue()[asked:]
    assert "warming up" not in answered and "working on it" not in answered


@pytest.mark.parametrize("command", [["live"], ["knektpass", "live"]])
def test_quit_during_the_set_up_leaves_with_nothing_saved(tmp_path, command):
    """``quit`` typed for a set-up question leaves, as it does at the game's prompt, instead of being refused as a
    player's name ("needs 2 to 7 players, not 1") and asked again."""
    child = spawn(command=command, cwd=tmp_path)
    child.expect_exact("Players in seat order")
    child.sendline("Ann Bob Cat Dan")
    child.expect(r"Deck|Dealer")  # Literature's next question, or Knektpass's
    child.sendline("quit")
    child.expect_exact("left before the set-up was complete: nothing was saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("command", "answers", "tab", "event"),
    [
        (
            ["live"],
            [
                ("Deck", "no-8s LS HS LH"),
                ("Dealer", "zoe"),
                ("House rules", ""),
                ("you?", "asa"),
                ("hand", "3s as 5h 6h 7h"),
            ],
            "zo",
            " dan 2h -",
        ),
        (
            ["knektpass", "live"],
            [
                ("Dealer", "asa"),
                ("House rules", ""),
                ("you?", "zoe"),
                ("turned card", "kh"),
                ("hand", "6h 7h 7c 8c 10c"),
            ],
            "as",
            " leaves",
        ),
    ],
)
def test_names_are_typed_without_their_accents_and_names_alike_so_are_refused(tmp_path, command, answers, tab, event):
    """``zoe`` names Zoë and ``asa`` Åsa, at the set-up questions, at the prompt and for Tab; a table of Zoë and ZOE
    is refused at once: those would be one name typed. ``zoe`` was an unknown player."""
    autosave = tmp_path / "game.live.txt"
    child = spawn("--autosave", str(autosave), command=command)
    child.expect_exact("Players in seat order")
    child.sendline("Zoë Åsa ZOE Dan")
    child.expect_exact("Zoë and ZOE are typed alike")
    child.sendline("Zoë Åsa Bob Dan")
    for question, answer in answers:
        child.expect_exact(question)
        child.sendline(answer)
    child.expect_exact("Type 'help' for help.")
    child.send(tab + "\t")
    mover = "Zoë" if tab == "zo" else "Åsa"
    child.expect_exact(f"> {mover}")  # completed in place
    child.sendline(event)
    child.expect_exact(f"ok: {mover} ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert autosave.read_text().splitlines()[0] == "Players: Zoë Åsa Bob Dan"


@pytest.mark.parametrize(
    ("command", "record", "opening"),
    [
        (["live"], "mini.txt", "4 players, no-8s deck, 3 sets; I am Ann; prior: players. 8 events so far; Ann to move"),
        (
            ["knektpass", "live"],
            "knektpass/bob.txt",
            f"3 players, 36 cards, {Rules()}; I am Bob; prior: rules. Deal 1, 11 events so far; Bob to move",
        ),
    ],
)
def test_both_games_open_alike_naming_their_prior(tmp_path, command, record, opening):
    """The opening says who plays with what, who I am and the prior that answers; then the events so far and who is
    to move; then the autosave. Knektpass's named no prior and told its events on the first line."""
    examples = Path(__file__).parents[2] / "examples"
    child = spawn(str(examples / record), "--autosave", "game.live.txt", command=command, cwd=tmp_path)
    child.expect_exact("Type 'help' for help.")
    assert " ".join(child.before.split()).endswith(f"{opening} (me). Autosaving to game.live.txt.")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_players_prior_is_one_flag_as_for_knektpass_advise(tmp_path):
    """``--prior players`` weighs each deal's deals by the other players' choices: the opening names it, and the
    advice says which prior answered, as ``knektpass advise --prior players`` does."""
    examples = Path(__file__).parents[2] / "examples"
    child = spawn(
        str(examples / "knektpass" / "bob.txt"), "--prior", "players", "--autosave", "game.live.txt", cwd=tmp_path
    )
    child.expect_exact("I am Bob; prior: players.")
    child.expect_exact("Bob to move (me)>")
    child.sendline("advise")
    child.expect_exact("minus is good")
    child.expect(r"prior: players \(effective sample size [\d,]+ of 4,000 deals\)")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def taking_the_trump(tmp_path: Path) -> tuple[pexpect.spawn, Path]:
    """Bob's live session of a new deal, asked which card he put down for the trump he takes; and its autosave."""
    record = tmp_path / "deal.txt"
    record.write_text("Players: Ann Bob Cat\nDealer: Bob\nTrump: KH\nMe: Bob\nHand Bob: 6H 7H 7C 8C 10C\n")
    autosave = tmp_path / "match.live.txt"
    child = spawn(str(record), "--autosave", str(autosave))
    child.expect_exact("Bob to move (me)>")
    child.sendline("take")
    child.expect_exact("which card did I put down for the turned KH?")
    return child, autosave


def test_a_refused_answer_to_a_question_asks_it_again(tmp_path):
    """A wrong answer to live's question (a card I do not hold to put down, four cards of a new hand) says why and
    asks again, so the answer typed next is read as the answer: it dropped the event, and the corrected answer
    was then read as an event of its own ("not an event", "nobody is to move")."""
    child, autosave = taking_the_trump(tmp_path)
    child.sendline("as")
    child.expect_exact("Bob does not hold AS")
    child.expect_exact("which card did I put down for the turned KH?")
    child.sendline("7c")
    child.expect_exact("ok: Bob takes the trump for 7C; Cat to move (opponent) (line 7)")
    for line in ("cat out", "ann out", "bob out"):  # nobody plays: the same dealer deals again
        child.sendline(line)
        child.expect_exact("ok: ")
    child.sendline("deal 9s")
    child.expect_exact("my 5 cards?")
    child.sendline("as ks qs jh")
    child.expect_exact("was dealt 5 cards, not 4")
    child.expect_exact("my 5 cards?")
    child.sendline("as ks qs jh 6c")
    child.expect_exact("ok: Deal 2: Trump 9S; Hand Bob: AS KS QS JH 6C")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1  # two answers were refused
    assert autosave.read_text().endswith("Deal 2: Trump 9S; Hand Bob: AS KS QS JH 6C\n")


def test_why_names_the_file_of_its_lines_only_when_it_names_a_line():
    """``why`` of a card in my hand names no line: its answer has no "(lines of FILE)" footnote under it."""
    text = (Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text()
    live = LiveMatch(read_match(text), text=text)
    live.autosave = "bob.live.txt"
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, color_system=None, force_terminal=True)
    view = KnektpassView(live, console)
    view.command("why", ["6h"])
    view.command("why", ["6s"])
    assert out.getvalue().splitlines() == [
        "6H: in my hand",
        "6S: played by Ann, line 19",
        f"(lines of {live.autosave})",
    ]


def test_score_names_each_player_once():
    """Without partners the score names every player with their points: ``score`` said it twice (``score Ann 12
    Bob 12 Cat 12: Ann 12 | Bob 12 | Cat 12``)."""
    text = (Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text()
    live = LiveMatch(read_match(text), text=text)
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, color_system=None, force_terminal=True)
    LiveSession(live, KnektpassView(live, console), TypedLines(), console=console).handle("score")
    assert out.getvalue() == "score Bob 12 Ann 12 Cat 12\n"


def test_a_command_typed_for_a_question_is_carried_out_and_exit_leaves_at_once(tmp_path):
    """At live's question, a command (``hand``: which card to put down?) is carried out and the question asked
    again, and ``exit`` drops the line asked about and leaves, as in Literature: both were refused as a card."""
    child, autosave = taking_the_trump(tmp_path)
    child.sendline("hand")
    child.expect_exact("my hand: 7H 6H 10C 8C 7C (trumps H)")
    child.expect_exact("which card did I put down for the turned KH?")
    child.sendline("exit")
    child.expect_exact("dropped: nothing recorded")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert read_match(autosave.read_text()).events == []
