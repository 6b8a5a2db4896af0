"""Fit the shipped choice model: ``python benchmarks/fit_choices.py DIR -o MODEL [--force]``.

Plays games between bots of four styles (strong, advisor, counting, random) at 6 players on fitting seeds 100
and 101 (never the calibration's held-out seed 200), writes their full records
into DIR (keeping those already there) and fits the choice model to them with ``cardlogic fit``. The shipped
``src/cardlogic/literature/choice_model.json`` was made by this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardlogic.cli import main
from cardlogic.literature import write_record
from cardlogic.literature.tournament import Match

PLAN = (
    (("strong", "counting"), 100, 8),
    (("advisor", "strong"), 100, 6),
    (("counting", "random"), 100, 6),
    (("advisor", "counting"), 100, 4),
    (("strong", "random"), 101, 4),
    (("advisor", "counting"), 101, 6),
    (("strong", "counting"), 101, 6),
)
"""(bots, seed, games) of the fitting games: every style of bot, each side of the table."""

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for bots, seed, games in PLAN:
        match = Match(bots, players=6, seed=seed)
        for index in range(games):
            path = args.folder / f"{'-'.join(bots)}-seed{seed}-{index}.txt"
            if not path.exists():  # a run stopped half-way goes on where it stopped
                path.write_text(write_record(match.record(index)))
            paths.append(str(path))
    sys.exit(main(["fit", *paths, "-o", args.output, *(["--force"] if args.force else [])]))
