"""``--prior`` on belief and advise says which prior answered; ``cardlogic fit`` writes only the file named, refuses
to overwrite it without --force, and names the line of a record it cannot fit on."""

from __future__ import annotations

import json
from pathlib import Path

from cardlogic.cli import build_parser, main
from cardlogic.literature import Game, Record, play_random_game, read_record, write_record
from cardlogic.literature.choices import DEFAULT_STYLES, ChoiceModel, PlayerStyles
from cardlogic.literature.decks import Deck
from cardlogic.table.literature import LiveGame

MINI = str(Path(__file__).resolve().parents[2] / "examples" / "mini.txt")


def test_belief_and_advise_say_which_prior_answered(capsys) -> None:
    assert main(["belief", MINI, "--prior", "rules", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["prior"] == "rules"
    assert main(["belief", MINI, "--prior", "players", "--json"]) == 0
    players = json.loads(capsys.readouterr().out)
    assert players["prior"].startswith("players (effective sample size")
    assert main(["belief", MINI, "--prior", "players"]) == 0
    assert "prior: players" in " ".join(capsys.readouterr().out.split())
    assert main(["advise", MINI, "--prior", "players", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["prior"].startswith("players")
    assert main(["advise", MINI, "--prior", "rules", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["prior"] == "rules"


def test_the_default_prior_is_the_players_and_says_so(capsys) -> None:
    """The players' prior is the better calibrated on held-out games (docs/beliefs.md): every command takes it
    unless told, and says so; the same record and seed give the same answer every time."""
    assert main(["belief", MINI, "--json"]) == 0
    default = capsys.readouterr().out
    assert main(["belief", MINI, "--prior", "players", "--json"]) == 0
    assert capsys.readouterr().out == default
    assert json.loads(default)["prior"].startswith("players (effective sample size")
    assert main(["belief", MINI]) == 0
    assert "prior: players (effective sample size" in " ".join(capsys.readouterr().out.split())
    assert main(["advise", MINI, "--json"]) == 0
    advice = capsys.readouterr().out
    assert json.loads(advice)["prior"].startswith("players")
    assert main(["advise", MINI, "--json"]) == 0
    assert capsys.readouterr().out == advice
    assert main(["advise", MINI]) == 0
    assert "prior: players" in capsys.readouterr().out
    for command in ("belief", "advise", "live"):
        assert build_parser([command]).parse_args([command, MINI]).prior == "players"
    assert build_parser(["serve"]).parse_args(["serve", MINI]).prior is None  # each game's own: LiveGame's
    assert LiveGame(read_record(Path(MINI).read_text(encoding="utf-8"))).belief.prior == "players"


def full_records(folder: Path, count: int) -> list[str]:
    game = Game(("Ann", "Bob", "Cat", "Dan"), deck=Deck.named("no-8s", sets=["LS", "HS", "LH"]), dealer=0)
    paths = []
    for seed in range(count):
        hands, events = play_random_game(game, seed)
        record = Record(
            game, None, {p: tuple(c for c in game.deck.cards if hand >> c & 1) for p, hand in enumerate(hands)}, events
        )
        path = folder / f"game{seed}.txt"
        path.write_text(write_record(record))
        paths.append(str(path))
    return paths


def test_fit_writes_the_model_and_refuses_to_overwrite_it(tmp_path, capsys) -> None:
    records = full_records(tmp_path, 3)
    output = tmp_path / "model.json"
    assert main(["fit", *records, "-o", str(output)]) == 0
    styles = PlayerStyles.read(output)
    assert styles.names == DEFAULT_STYLES.names  # the shipped styles, fit again
    assert all(model.fitted_on.startswith("maximum likelihood on 3 records") for model in styles.models)
    assert "careful: held" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game0.txt", "game1.txt", "game2.txt", "model.json"]
    capsys.readouterr()
    output.write_text("kept")
    assert main(["fit", *records, "-o", str(output)]) == 1
    assert (
        "already exists: not written; --force replaces it" in capsys.readouterr().err and output.read_text() == "kept"
    )
    assert main(["fit", *records, "-o", str(output), "--force"]) == 0
    assert PlayerStyles.read(output) == styles
    start = tmp_path / "one.json"
    start.write_text(ChoiceModel(held=1.0).to_json())
    assert main(["fit", *records, "-o", str(output), "--force", "--start", str(start)]) == 0
    assert PlayerStyles.read(output).names == ("model",)  # a single model's file fits as one style


def test_fit_names_a_record_it_cannot_use(tmp_path, capsys) -> None:
    output = tmp_path / "model.json"
    assert main(["fit", MINI, "-o", str(output)]) == 1
    assert f"{MINI}:1: not a full record" in capsys.readouterr().err
    [path] = full_records(tmp_path, 1)
    lines = Path(path).read_text().splitlines()
    first = lines.index("") + 1  # the first event's line, an ask
    answer = ": yes" if lines[first].endswith(": no") else ": no"
    lines[first] = lines[first].rsplit(":", 1)[0] + answer
    Path(path).write_text("\n".join(lines) + "\n")
    assert main(["fit", path, "-o", str(output)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:{first + 1}: ")
    assert not output.exists()


def test_fit_says_in_one_line_why_it_cannot_read_its_start(tmp_path, capsys) -> None:
    """A --start that is missing, a folder, not UTF-8 or not JSON is refused naming it, before any fitting and with
    nothing written."""
    records = full_records(tmp_path, 1)
    output = tmp_path / "model.json"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    for start in (tmp_path / "missing.json", tmp_path, binary, broken):
        assert main(["fit", *records, "-o", str(output), "--start", str(start)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"{start}:") and err.count("\n") == 1 and "Traceback" not in err
    assert not output.exists()
