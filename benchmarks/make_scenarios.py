"""Regenerate the stored benchmark scenarios in benchmarks/scenarios/ (seeded: the same files every time).

python benchmarks/make_scenarios.py [DIRECTORY]
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardlogic.bench.scenarios import write_scenarios

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "scenarios"
    for path in write_scenarios(target):
        print(path)
