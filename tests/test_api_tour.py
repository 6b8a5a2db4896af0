"""The Python API and the messages a newcomer meets first: names where they are looked for, results in players'
names and cards, errors that say what to do instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cardlogic
from cardlogic.cards import Card
from cardlogic.cli import build_parser, main
from cardlogic.cli.sprt import verdict
from cardlogic.literature import IllegalEventError
from cardlogic.rating import SPRT

ROOT = Path(__file__).resolve().parents[1]
ANN_VIEW = ROOT / "examples" / "ann-view.txt"
BOB_VIEW = ROOT / "examples" / "knektpass" / "bob.txt"


def test_the_package_docstring_says_where_both_games_live():
    assert "Knektpass" in cardlogic.__doc__ and "cardlogic.knektpass" in cardlogic.__doc__
    assert "cardlogic.literature" in cardlogic.__doc__


def test_the_main_names_of_each_game_are_reachable_from_its_package_without_importing_numba_before_use():
    from cardlogic import knektpass, literature
    from cardlogic.knektpass.advice import advise as knektpass_advise
    from cardlogic.knektpass.belief import KnektpassBelief
    from cardlogic.literature.advice import advise, advise_record
    from cardlogic.literature.belief import LiteratureBelief

    assert (literature.LiteratureBelief, literature.advise, literature.advise_record) == (
        LiteratureBelief,
        advise,
        advise_record,
    )
    assert callable(literature.read_record)
    assert (knektpass.KnektpassBelief, knektpass.advise) == (KnektpassBelief, knektpass_advise)
    with pytest.raises(AttributeError, match="no attribute 'Believe'"):
        _ = literature.Believe
    code = "import sys, cardlogic.literature, cardlogic.knektpass; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.fixture(scope="module")
def ann():
    from cardlogic.literature import LiteratureBelief, read_record

    return LiteratureBelief.from_record(read_record(ANN_VIEW.read_text(encoding="utf-8")))


def test_a_beliefs_hand_is_cards_and_its_certain_facts_name_the_holder(ann):
    assert all(isinstance(card, Card) for card in ann.hand)
    assert ann.hand == tuple(sorted(ann.hand))
    facts = ann.certain()
    assert facts and all(fact.name == ann.holders[fact.holder] for fact in facts)
    fact = next(f for f in facts if f.has)
    assert str(fact) == f"{fact.name} holds {fact.card}"


def test_pushing_text_points_to_the_parser_and_changes_nothing(ann):
    before = len(ann.public.history)
    with pytest.raises(IllegalEventError, match=r"parse_event\(text, game\)"):
        ann.push("Fay asks Ann for 3C: yes")
    assert len(ann.public.history) == before


@pytest.mark.parametrize("path", [ANN_VIEW, BOB_VIEW], ids=["literature", "knektpass"])
def test_a_record_with_a_byte_order_mark_reads_like_any_other(tmp_path, capsys, path):
    from cardlogic import knektpass, literature

    game = knektpass if path == BOB_VIEW else literature
    text = path.read_text(encoding="utf-8")
    marked = tmp_path / "notepad.txt"
    marked.write_text("\ufeff" + text, encoding="utf-8")
    assert game.write_record(game.read_record(marked.read_text(encoding="utf-8"))) == game.write_record(
        game.read_record(text)
    )
    command = ["knektpass", "check"] if game is knektpass else ["check"]
    assert main([*command, str(marked)]) == 0
    assert capsys.readouterr().err == ""


def test_a_record_of_the_other_game_names_the_command_that_reads_it(capsys):
    assert main(["check", str(BOB_VIEW)]) == 1
    err = capsys.readouterr().err
    assert err == f"{BOB_VIEW}:3: this is a Knektpass record (it has a Trump header): use `cardlogic knektpass ...`\n"
    assert main(["knektpass", "belief", str(ROOT / "examples" / "mini.txt")]) == 1
    assert "this is a Literature record (it has a Deck header): use `cardlogic check" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_an_unknown_bot_is_named(capsys, command):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--bots", "advisr,counting"])
    assert exit_info.value.code == 2
    assert "unknown bot 'advisr' (expected one of random, counting, advisor" in capsys.readouterr().err


def test_the_knektpass_tournament_help_shows_a_plain_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["knektpass", "tournament", "--help"])
    out = capsys.readouterr().out
    assert "95% Wilson" in " ".join(out.split()) and "%%" not in out


def test_a_sweep_gives_a_finite_elo_bound_in_words():
    swept = SPRT(0, 200).run(iter([1.0] * 100))
    estimate, low, high = swept.elo_interval()
    assert estimate == high == float("inf") and 100 < low < 400
    line = verdict(swept, ("advisor", "random"))
    assert f"Elo beyond measure (at least {low:+.0f} at 95%)" in line and "inf" not in line
    lost = SPRT(-200, 0).run(iter([0.0] * 100))
    assert "Elo beyond measure (at most -" in verdict(lost, ("random", "advisor"))


def _jobs_default(argv: list[str]) -> int:
    parser = build_parser(argv)
    return parser.parse_args([*argv, "--bots", "advisor,counting" if argv[0] != "knektpass" else "advisor,greedy"]).jobs


def test_jobs_has_the_same_default_in_every_command():
    assert {_jobs_default(["tournament"]), _jobs_default(["sprt"]), _jobs_default(["knektpass", "tournament"])} == {1}
