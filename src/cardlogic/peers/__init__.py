"""Adapters to other card-game engines, for cross-checking cardlogic against them."""
