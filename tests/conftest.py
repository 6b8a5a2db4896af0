"""What every test shares: commands run in their own process, never in a resident server (tests/cli/test_resident.py
turns servers on for its own commands, in a private directory of its own)."""

import os

os.environ["CARDLOGIC_RESIDENT"] = "0"
