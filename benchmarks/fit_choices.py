"""Fit the shipped choice model: ``python benchmarks/fit_choices.py DIR -o MODEL [--force]``.

Plays games between bots of different styles at 6 players on fitting seeds 100
and 101 (never the calibration's held-out seed 200), writes their full records
into DIR and fits the choice model to them with ``cardlogic fit``. The shipped
``src/cardlogic/literature/choice_model.json`` was made by this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardlogic.bench.calibration import bot_records
from cardlogic.cli import main
from cardlogic.literature import write_record

PLAN = (
    (("counting", "random"), 100, 10),
    (("advisor", "counting"), 100, 6),
    (("advisor", "random"), 100, 4),
    (("advisor", "counting"), 101, 10),
    (("counting", "random"), 101, 6),
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
        for index, record in enumerate(bot_records(bots, 6, games, seed)):
            path = args.folder / f"{'-'.join(bots)}-seed{seed}-{index}.txt"
            path.write_text(write_record(record))
            paths.append(str(path))
    sys.exit(main(["fit", *paths, "-o", args.output, *(["--force"] if args.force else [])]))
