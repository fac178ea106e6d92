"""The `automa` command: thin click commands over the library."""
