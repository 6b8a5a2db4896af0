"""Fit the shipped players' styles: ``python benchmarks/fit_choices.py DIR -o MODEL [--force]``.

Plays games at 6 players on fitting seeds (never the calibration's held-out seeds 200, 250 and 260) and writes
their full records into DIR (keeping those already there): ``strong`` against itself (seed 270), ``counting``
against itself (seed 150), and bots of four styles against each other (strong, advisor, counting, random; seeds
100 and 101). Then fits, by maximum likelihood, a ``loose`` style on the games between styles (from zero weights),
a ``careful`` one on the strong games alone (from the loose one), a ``counter`` one on the counting games alone
(from the careful one), and the three at once on all the games as a mixture (each player plays by one style or by
the rules; shares 0.3 each and 0.1), from those three. The shipped ``src/cardlogic/literature/choice_model.json``
was made by this script, from the records in ``benchmarks/choices/``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from cardlogic.bench.calibration import self_play_record
from cardlogic.files import check_writable, write_owned
from cardlogic.literature import Record, read_record, write_record
from cardlogic.literature.choices import ChoiceModel, History, PlayerStyles, fit, fitting_game
from cardlogic.literature.tournament import Match

CAREFUL = ("strong", 270, 30)
"""(bot, seed, games) of the games of one careful style against itself."""
COUNTER = ("counting", 150, 30)
"""(bot, seed, games) of the games of a player who asks the likeliest card by plain counting, against itself."""
PLAN = (
    (("strong", "counting"), 100, 8),
    (("advisor", "strong"), 100, 6),
    (("counting", "random"), 100, 6),
    (("advisor", "counting"), 100, 4),
    (("strong", "random"), 101, 4),
    (("advisor", "counting"), 101, 6),
    (("strong", "counting"), 101, 6),
)
"""(bots, seed, games) of the games between styles: every style of bot, each side of the table."""
SHARE = 0.3
"""Each style's prior share of the players (the rules' is the rest)."""


def kept(folder: Path, name: str, play: Callable[[], Record]) -> Record:
    """The record ``name`` in ``folder``, played by ``play()`` and written there first if it is not (a run stopped
    half-way goes on where it stopped)."""
    path = folder / name
    if not path.exists():
        path.write_text(write_record(play()))
    return read_record(path.read_text(), str(path))


def games_of(records: list[Record]) -> list[tuple[History, np.ndarray]]:
    """The records as :func:`fit` reads them."""
    return [fitting_game(record) for record in records]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    check_writable(args.output, force=args.force)  # before the fit, not after
    args.folder.mkdir(parents=True, exist_ok=True)
    careful, counter = (
        [
            kept(args.folder, f"{bot}-{bot}-seed{seed}-{i}.txt", partial(self_play_record, bot, 6, seed, i))
            for i in range(count)
        ]
        for bot, seed, count in (CAREFUL, COUNTER)
    )
    between = []
    for bots, seed, count in PLAN:
        match = Match(bots, players=6, seed=seed)
        between += [
            kept(args.folder, f"{'-'.join(bots)}-seed{seed}-{i}.txt", partial(match.record, i)) for i in range(count)
        ]
    # each history built once, for the four fits
    careful_games, counter_games, between_games = games_of(careful), games_of(counter), games_of(between)
    loose = fit(ChoiceModel(modelled=SHARE), between_games, "loose")
    careful_style = fit(loose, careful_games, "careful")
    counter_style = fit(careful_style, counter_games, "counter")
    styles = PlayerStyles((careful_style, loose, counter_style), ("careful", "loose", "counter"))
    records = careful + counter + between
    events = sum(len(r.events) for r in records)
    described = f"maximum likelihood of the styles on {len(records)} records ({events:,} events)"
    styles = fit(styles, careful_games + counter_games + between_games, described)
    write_owned(args.output, styles.to_json(), force=args.force)
    print(styles.to_json())
