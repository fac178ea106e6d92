"""Where a fact of the data comes from: each record of data/ (and of a user's data folder) says."""

from __future__ import annotations

from automa.model.vocabulary import Word


class Provenance(Word):
    """The source of a data record: the rulebook, the official cards or FAQ, a fan
    transcription, our own house reading, or what the players told at the table."""

    RULEBOOK = "rulebook"
    OFFICIAL = "official"
    FAN = "fan"
    HOUSE = "house"
    ASKED = "asked"
