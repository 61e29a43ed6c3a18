"""Board file formats, one module each (``common`` holds what they share);
``core.formats`` lists them and picks one for a file."""
