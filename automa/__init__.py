"""catacombs-automa: the Red Box AI player for Catacombs 3E, run beside the physical table."""

__version__ = "0.1.0"
