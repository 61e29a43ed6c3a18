"""Play without sight: the game, replays and rooms in plain lines for a screen reader.

``snl --screen-reader`` (also the setting ``screen_reader = true`` and ``TERM=dumb``)
runs these instead of the full-screen app: one event a line on standard output, in words,
and typed commands on standard input. Underneath is the same ``GameSession``, the same
saving, solver, odds and room client as the game screen; nothing here imports Textual or
Rich (an import-linter contract says so) and nothing here decides a rule.
"""
