"""Knektpass (Knekt-Pass), the old Swedish trick-taking game with the four jacks as permanent top trumps.

Rules, events, positions and the record notation of one deal, and the match of
deals played until someone reaches 0 points.
"""
