"""What snl keeps between runs: saved games (``games``), autosave (``saving``), the history
beside the odds (``history``), the settings file (``settings``) and where they all live
(``data_dir``).
"""
