"""The game at the table: a record's set-up and events, growing event by event, saved after every change.

One game core under every interface that follows a game as it is played (``cardlogic live`` in a terminal, the
benchmark suite's live timings): it has no input or output of its own beyond the autosave file.
:mod:`cardlogic.table.core` holds what every game shares (:class:`~cardlogic.table.core.TableGame`: push a typed
line or an event, undo, autosave, status, log); each game's module holds what is particular to it
(:mod:`cardlogic.table.literature`).
"""
