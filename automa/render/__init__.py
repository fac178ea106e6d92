"""Turning results into what people and programs read: the printout and the JSON."""
