"""The board studio's core: edits as pure functions (``edit``), the editor's file
(``board_file``), live figures (``figures``), checks and jump effects (``checks``,
``impacts``), the generator (``generate``) and starter boards (``templates``).
"""
