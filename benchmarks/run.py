"""Run the benchmark suite: ``python benchmarks/run.py [--quick] [--json FILE]`` (same as ``cardlogic bench``)."""

from __future__ import annotations

import sys
from pathlib import Path

from cardlogic.cli.bench import DEFAULT_SCENARIOS, main

if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    arguments = sys.argv[1:]
    if "--scenarios" not in arguments and not DEFAULT_SCENARIOS.is_dir():
        arguments += ["--scenarios", str(here / "scenarios")]
    sys.exit(main(arguments))
