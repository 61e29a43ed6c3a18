"""The game's widgets: the board (Line API), the side panels and the move log."""
