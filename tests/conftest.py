"""What every test shares: commands run in their own process, never in a resident server (tests/cli/test_resident.py
turns servers on for its own commands, in a private directory of its own), and a command's width is its terminal's
(a COLUMNS or LINES inherited from the process that runs the tests, as a worker process of the test run may have,
would wrap what a test in a pseudo-terminal of 200 columns expects on one line)."""

import os

os.environ["CARDLOGIC_RESIDENT"] = "0"
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)
