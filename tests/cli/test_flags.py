"""Every numeric flag rejects a bad value with a usage error (exit code 2) saying what it expected; help reads
cleanly."""

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from cardlogic import __version__
from cardlogic.bench.report import _colour
from cardlogic.cli import main
from cardlogic.inference.csp import CspBackend

MINI = str(Path(__file__).resolve().parents[2] / "examples" / "mini.txt")
BOB = str(Path(__file__).resolve().parents[2] / "examples" / "knektpass" / "bob.txt")

# Each command with its required arguments, then the numeric flags it takes.
COMMANDS = {
    "belief": ([MINI], ["--samples", "--seed", "--deals"]),
    "advise": ([MINI], ["--deals"]),
    "live": ([MINI], ["--deals"]),
    "serve": ([MINI], ["--deals", "--seed"]),
    "simulate": ([], ["--players", "--seed"]),
    "view": ([MINI, "--as", "Ann"], ["--events"]),
    "tournament": (["--bots", "advisor,random"], ["--players", "--games", "--seed", "--jobs"]),
    "sprt": (["--bots", "advisor,counting"], ["--players", "--seed", "--jobs", "--max-games"]),
}
BAD = {
    "--samples": ["-5", "0", "abc", "1.5", "10000001"],
    "--deals": ["-5", "0", "abc", "1.5", "10000001"],
    "--seed": ["-1", "abc", "4294967296"],
    "--players": ["3", "13", "six"],
    "--games": ["0", "-1", "many"],
    "--jobs": ["0", "x"],
    "--max-games": ["19", "0", "x"],
    "--events": ["-1", "abc"],
}
CASES = [(command, flag, value) for command, (_, flags) in COMMANDS.items() for flag in flags for value in BAD[flag]]


def usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    return err


@pytest.mark.parametrize("command, flag, value", CASES)
def test_a_bad_number_is_a_usage_error(capsys, command, flag, value):
    arguments, _ = COMMANDS[command]
    err = usage_error(capsys, [command, *arguments, flag, value])
    assert f"cardlogic {command}: error: argument {flag}: expected " in err and err.endswith(f", not '{value}'\n")


@pytest.mark.parametrize("command", ["advise", "live"])
@pytest.mark.parametrize("value", ["0", "1000001", "many"])
def test_knektpass_samples_are_as_many_deals_as_the_advice_can_draw(capsys, command, value):
    """The advice draws its deals whole, at most MAX_DRAWN_DEALS: more was a traceback once it drew them."""
    err = usage_error(capsys, ["knektpass", command, BOB, "--samples", value])
    assert err.endswith(f"argument --samples: expected a number of deals from 1 to 1,000,000, not '{value}'\n")


@pytest.mark.parametrize("flag", ["--elo0", "--elo1"])
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "strong"])
def test_sprt_elo_is_a_finite_number(capsys, flag, value):
    """An infinite H1 was accepted at once ("stronger by inf Elo or more"), and a NaN said elo1 was not above elo0."""
    err = usage_error(capsys, ["sprt", "--bots", "advisor,counting", f"{flag}={value}"])
    assert err.endswith(f"argument {flag}: expected an Elo difference, a finite number, not '{value}'\n")


@pytest.mark.parametrize("value", ["1", "11"])
def test_knektpass_simulate_players_are_as_many_as_a_deal_takes(capsys, value):
    """2 to 10, as --help says: 11 was refused after parsing, in other words ("at most 10 players")."""
    err = usage_error(capsys, ["knektpass", "simulate", "--players", value])
    assert err.endswith(f"argument --players: expected a number of players from 2 to 10, not '{value}'\n")


def test_view_events_says_what_it_expected(capsys):
    err = usage_error(capsys, ["view", MINI, "--as", "Ann", "--events", "abc"])
    assert err.endswith("argument --events: expected a number of events, 0 or more, not 'abc'\n")


def test_the_edges_of_the_ranges_are_accepted(capsys):
    assert main(["belief", MINI, "--method", "sample", "--samples", "1", "--seed", "4294967295", "--json"]) == 0
    assert '"samples": 1' in capsys.readouterr().out
    assert main(["simulate", "--players", "12", "--seed", "0"]) == 0
    assert main(["view", MINI, "--as", "Ann", "--events", "0"]) == 0


def help_text(capsys, monkeypatch, *argv: str) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as info:
        main([*argv, "--help"])
    assert info.value.code == 0
    return capsys.readouterr().out


def test_tournament_help(capsys, monkeypatch):
    text = help_text(capsys, monkeypatch, "tournament")
    assert "95% Wilson" in " ".join(text.split()) and "%%" not in text
    assert "high-double=on" in text  # never split at its hyphen


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_the_cluster_and_the_cheat_are_in_the_help(capsys, monkeypatch, command):
    text = " ".join(help_text(capsys, monkeypatch, command).split())
    assert "--scheduler ADDRESS" in text and "pip install 'cardlogic[cluster]'" in text
    assert "omniscient, which CHEATS" in text


def test_simulate_help_lists_every_set_name(capsys, monkeypatch):
    text = " ".join(help_text(capsys, monkeypatch, "simulate").split())
    assert (
        "no-8s, no-2s, no-7s: LS HS LH HH LD HD LC HC; jokers: LS HS LH HH LD HD LC HC E; "
        "fours: 2 3 4 5 6 7 8 9 10 J Q K A" in text
    )


def test_belief_help_states_the_csp_deal_limit(capsys, monkeypatch):
    text = " ".join(help_text(capsys, monkeypatch, "belief").split())
    assert f"over {CspBackend().max_deals:,} deals" in text


@pytest.mark.parametrize("command", ["check", "view", "belief", "advise"])
def test_every_record_argument_takes_standard_input(capsys, monkeypatch, command):
    assert "game record file, or - for standard input" in " ".join(help_text(capsys, monkeypatch, command).split())


def test_belief_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(Path(MINI).read_text()))
    assert main(["belief", "-", "--prior", "rules", "--json"]) == 0
    assert '"deals": "8655"' in capsys.readouterr().out


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out == f"cardlogic {__version__}\n"


def test_belief_says_how_it_worked_out_below_its_table_at_the_console_s_width(capsys, monkeypatch):
    """As ``knektpass belief`` does: a table's caption wrapped at the narrow table's width, in three lines here."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["belief", MINI]) == 0
    out = capsys.readouterr().out
    below = out[out.rindex("┘\n") + 2 :].splitlines()
    assert below[0].startswith("prior: players (effective sample size")
    assert len(below[0].rstrip()) > len(out.splitlines()[1]) and len(below) == 3


def test_csp_is_named_in_the_caption(capsys):
    assert main(["belief", MINI, "--method", "csp", "--prior", "rules"]) == 0
    assert "csp over 8,655 consistent deals" in capsys.readouterr().out


def test_bench_without_a_scenario_directory_exits_1(capsys, tmp_path):
    assert main(["bench", "--smoke", "--scenarios", str(tmp_path / "none")]) == 1
    assert "no scenario directory" in capsys.readouterr().err


def test_bench_refuses_a_folder_without_scenarios_before_measuring(capsys, tmp_path):
    """In one line, where it raised FileNotFoundError or ValueError."""
    assert main(["bench", "--smoke", "--scenarios", str(tmp_path)]) == 1
    assert (
        capsys.readouterr().err
        == f"cardlogic bench: no scenario files in {tmp_path} (run benchmarks/make_scenarios.py)\n"
    )
    (tmp_path / "notes.txt").write_text("my notes\n")
    assert main(["bench", "--smoke", "--scenarios", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"cardlogic bench: {tmp_path / 'notes.txt'}:1: not a benchmark scenario (no '# bench:' line)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--bots", "counting,random", "--players", "4", "--games", "2"],
        ["sprt", "--bots", "counting,random", "--players", "4", "--elo1", "400", "--max-games", "20"],
        ["knektpass", "tournament", "--bots", "greedy,random", "--games", "2"],
    ],
)
def test_a_match_writes_nothing_to_standard_error_off_a_terminal(capsys, argv):
    """The progress bar is for a person: into a log file or a pipe rich wrote an empty line where it had been."""
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) and err == ""


def test_bench_messages_keep_the_extra_in_brackets():
    console = Console(file=io.StringIO(), width=200)
    console.print(_colour("ImportError: ... (pip install 'cardlogic[test]')"))
    assert "pip install 'cardlogic[test]'" in console.file.getvalue()


def test_one_deal_is_singular(capsys):
    end = str(Path(MINI).with_name("six-players.txt"))  # the end of the game
    assert main(["belief", end, "--prior", "rules"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].rstrip() == "exact over 1 consistent deal; prior: rules"


@pytest.mark.parametrize("command", ["advise", "belief"])
def test_deals_sets_how_many_deals_the_players_prior_weighs(capsys, command, monkeypatch):
    """On the mini game the players' prior weighs 11,857 of the rules' deals unless told (it draws more while its
    weights leave too few effective ones); ``--deals`` sets the first draw, up to ``--samples``."""
    monkeypatch.setenv("CARDLOGIC_RESIDENT", "0")
    weighed = {}
    for deals in (None, "300", "20000"):
        assert main([command, MINI, "--json", *([] if deals is None else ["--deals", deals])]) == 0
        prior = json.loads(capsys.readouterr().out)["prior"]
        weighed[deals] = int(re.search(r"of ([\d,]+) deals\)$", prior)[1].replace(",", ""))
    assert weighed[None] == 11_857 and 300 <= weighed["300"] < weighed[None] and weighed["20000"] == 20_000


@pytest.mark.parametrize(("command", "default"), [("advise", "1,000"), ("live", "10,000")])
def test_deals_help_says_it_sets_the_first_draw(capsys, monkeypatch, command, default):
    monkeypatch.setenv("COLUMNS", "80")  # the help fits a terminal of 80 columns
    with pytest.raises(SystemExit):
        main([command, "--help"])
    printed = capsys.readouterr().out
    help_lines, words = printed.splitlines(), " ".join(printed.split())
    first_draw = "the rules' deals the players' prior draws first in a position"
    assert f"{first_draw} (default {default}, at most the deals its figures count)" in words
    assert "it draws more while their weights leave too few effective deals" in words
    assert all(len(line) <= 80 for line in help_lines), [line for line in help_lines if len(line) > 80]


@pytest.mark.parametrize("command", ["advise", "belief"])
def test_captions_say_which_deals_were_weighed_and_which_the_figures_count(capsys, command, monkeypatch):
    monkeypatch.setenv("CARDLOGIC_RESIDENT", "0")
    assert main([command, MINI]) == 0
    words = " ".join(capsys.readouterr().out.split())
    counted = "figures" if command == "advise" else "table"
    caption = (
        r"prior: players \(effective sample size [\d,]+ of 11,857 deals\), the rules' deals weighed by the players' "
        rf"choices; the {counted}: [\d,]+ deals drawn from those by weight"
    )
    assert re.search(caption, words), words[-400:]
