"""Frozen value types of the game: shots, monsters, components, playmats, pieces, scenarios."""
