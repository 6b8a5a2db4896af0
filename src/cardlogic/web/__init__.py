"""``cardlogic serve``'s web companion: a page for the phone at the table over a JSON API.

:mod:`cardlogic.web.companion` holds the game a page follows (on the shared :mod:`cardlogic.table` core),
:mod:`cardlogic.web.app` serves it; the page and its assets ship in ``static/``, with nothing fetched from
elsewhere, so it works with no internet at the table.
"""
