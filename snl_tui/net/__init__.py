"""Play with friends on other machines: rooms served by ``snl host`` (``server``), joined by
``RoomClient`` (``client``), speaking a checked JSON protocol (``protocol``) over
websockets. Above the core (the game, its seats and their drivers), below the CLI and
the app; no Textual here.
"""
