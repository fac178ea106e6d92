"""Where the rules data lives: the files shipped in the wheel, and the user's own folder."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from automa.catalog.reader import parse_toml, read_file_text
from automa.errors import DataError

DATA_FILES = (
    "components.toml",
    "behaviour.toml",
    "monsters.toml",
    "lords.toml",
    "playmats.toml",
    "rooms.toml",
    "effects.toml",
    "setup.toml",
    "campaigns.toml",
    "visits.toml",
)
USER_DATA_ENV = "AUTOMA_DATA_DIR"


def shipped_data_dir() -> Path:
    """The data/ folder: inside the wheel as automa/_data, a symlink to data/ in a checkout."""
    return Path(str(resources.files("automa") / "_data"))


def user_data_dir(explicit: str | Path | None = None) -> Path | None:
    """The user's override folder: --data-dir, else $AUTOMA_DATA_DIR, else none."""
    chosen = explicit or os.environ.get(USER_DATA_ENV)
    if not chosen:
        return None
    path = Path(chosen).expanduser()
    if not path.is_dir():
        raise DataError(str(path), "", "", "the data folder does not exist")
    return path


def read_toml(path: Path) -> dict[str, Any]:
    """A data file: a regular file of bounded size, valid TOML, not nested absurdly deep."""
    return parse_toml(read_file_text(path), str(path))


def is_record(table: object) -> bool:
    return isinstance(table, dict) and "provenance" in table


def merge_records(shipped: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """A user record replaces the shipped record of the same id whole; new ids extend the file.

    A record is a table with a `provenance` key; tables above records (such as [disc]) merge.
    """
    merged = dict(shipped)
    for key, value in override.items():
        below = merged.get(key)
        if isinstance(value, dict) and isinstance(below, dict) and not is_record(value):
            merged[key] = merge_records(below, value)
        else:
            merged[key] = value
    return merged


def load_data_file(name: str, user_dir: Path | None) -> tuple[dict[str, Any], dict[str, str]]:
    """The merged tables of one data file, and for each top-level key the file it came from."""
    shipped_path = shipped_data_dir() / name
    tables = read_toml(shipped_path)
    origins = dict.fromkeys(tables, f"data/{name}")
    if user_dir is not None and (user_dir / name).exists():  # a pipe or a folder: refused
        user_path = user_dir / name
        override = read_toml(user_path)
        tables = merge_records(tables, override)
        origins.update(dict.fromkeys(override, str(user_path)))
    return tables, origins
