"""Board files: one module per format (``json_board``, ``toml_board``, ``text_board``) behind
the registry in ``formats``, with what they share in ``common``, and share codes in ``share``.
"""
