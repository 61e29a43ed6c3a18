"""The game's screens: the main game screen and its dialogs."""
