"""Per-game translators from public events to constraints on the initial deal."""
