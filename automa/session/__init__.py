"""A battle on disk: the starting scenario and an append-only log of every input."""
