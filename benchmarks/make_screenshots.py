"""Regenerate the screenshots of ``cardlogic serve`` in docs/images/ from the page as it is now.

python benchmarks/make_screenshots.py [DIRECTORY]

The browser tests play a scripted Literature game and a scripted Knektpass match by taps in Debian's headless
chromium at a phone's viewport (390 x 844), saving their main screens to ``$CARDLOGIC_SCREENSHOTS``: this runs the
two of them that take the screens the docs show and copies those under the docs' names (the same pictures every
time, but for the fonts of the machine). It needs the test extra (``pip install '.[test]'``) and chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = (
    "tests/web/test_browser.py::test_a_whole_game_by_taps_on_a_phone_with_a_desktop_tab_beside_it",
    "tests/web/test_knektpass_browser.py::test_a_knektpass_deal_by_taps_on_a_phone_with_a_desktop_tab_beside_it",
)
SHOTS = {
    "table-phone.png": "serve-table-phone.png",
    "claim-sheet.png": "serve-claim-sheet.png",
    "knektpass-table-phone.png": "serve-knektpass-phone.png",
    "knektpass-heat-phone.png": "serve-knektpass-heat.png",
}
"""Each screen the docs show: the name the test saves it under, and the docs' name."""


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "CARDLOGIC_SCREENSHOTS": folder}
        tests = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-rs", *TESTS], cwd=ROOT, env=env)
        missing = [shot for shot in SHOTS if not (Path(folder) / shot).is_file()]
        if tests.returncode or missing:
            print("make_screenshots: the browser tests failed or were skipped: nothing copied", file=sys.stderr)
            return 1
        target.mkdir(parents=True, exist_ok=True)
        for shot, name in SHOTS.items():
            shutil.copyfile(Path(folder) / shot, target / name)
            print(target / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
