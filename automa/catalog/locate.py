"""Where the rules data lives: the files shipped in the wheel, and the user's own folder."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from automa.catalog.reader import parse_toml, read_file_text
from automa.errors import DataError

if TYPE_CHECKING:  # a turn reads these paths as text: pathlib costs its start ~5 ms
    from pathlib import Path

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
    "capture.toml",
)
USER_DATA_ENV = "AUTOMA_DATA_DIR"


def shipped_data_folder() -> str:
    """The data/ folder: inside the wheel as automa/_data, a symlink to data/ in a checkout.

    Found beside this package's files when it lies on disk (the usual case: no need to import
    importlib.resources, which costs a command's start some milliseconds); else through it."""
    beside = os.path.join(os.path.dirname(os.path.dirname(__file__)), "_data")
    if os.path.isdir(beside):
        return beside
    from importlib import resources

    return str(resources.files("automa") / "_data")


def shipped_data_dir() -> Path:
    """`shipped_data_folder` as a Path."""
    from pathlib import Path

    return Path(shipped_data_folder())


def default_data_folder() -> Path:
    """Where a player's own data goes when no folder is named: $XDG_DATA_HOME (else
    ~/.local/share) /catacombs-automa. `automa calibrate` writes there; the photo capture keeps
    its empty-mat views there when no data folder is in force."""
    from pathlib import Path

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "catacombs-automa"


def user_data_dir(explicit: str | Path | None = None) -> Path | None:
    """The user's override folder: --data-dir, else $AUTOMA_DATA_DIR, else none."""
    chosen = explicit or os.environ.get(USER_DATA_ENV)
    if not chosen:
        return None
    from pathlib import Path

    path = Path(chosen).expanduser()
    if not path.is_dir():
        raise DataError(str(path), "", "", "the data folder does not exist")
    return path


def read_toml(path: str | Path) -> dict[str, Any]:
    """A data file: a regular file of bounded size, valid TOML, not nested absurdly deep."""
    return parse_toml(read_file_text(path), str(path))


def read_data_toml(path: str | Path) -> dict[str, Any]:
    """A shipped data file as `read_toml` reads it, its parse kept in the user's cache by its
    bytes (the user's own files are read each time: they are few and small, and a cache entry
    per folder would pile up)."""
    from automa.catalog.tables_cache import cached_tables, store_tables

    text = read_file_text(path)
    tables = cached_tables(path, text)
    if tables is None:
        tables = parse_toml(text, str(path))
        store_tables(path, text, tables)
    return tables


def is_record(table: object) -> bool:
    return isinstance(table, dict) and "provenance" in table


def merge_records(shipped: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """A user record replaces the shipped record of the same id whole; new ids extend the file.

    A record is a table with a `provenance` key; tables above records (such as [disc]) merge.
    A user table over a shipped record replaces it whole too, with or without a provenance of
    its own: never a shipped record with some fields changed under the shipped provenance
    (the loader then says the provenance is missing, naming the record).
    """
    merged = dict(shipped)
    for key, value in override.items():
        below = merged.get(key)
        if (isinstance(value, dict) and isinstance(below, dict) and not is_record(value)
                and not is_record(below)):
            merged[key] = merge_records(below, value)
        else:
            merged[key] = value
    return merged


def load_data_file(name: str, user_dir: Path | None) -> tuple[dict[str, Any], dict[str, str]]:
    """The merged tables of one data file, and for each top-level key the file it came from."""
    shipped_path = os.path.join(shipped_data_folder(), name)
    tables = read_data_toml(shipped_path)
    origins = dict.fromkeys(tables, f"data/{name}")
    if user_dir is not None and (user_dir / name).exists():  # a pipe or a folder: refused
        user_path = user_dir / name
        override = read_toml(user_path)  # the user's files change: not kept (see below)
        tables = merge_records(tables, override)
        origins.update(dict.fromkeys(override, str(user_path)))
    return tables, origins
