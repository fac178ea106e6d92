"""A session or a whole campaign folder as one file, and back (`automa export`, `automa
import`, the board's Export and Import buttons).

The file is one JSON object (UTF-8, `.automa.json`), chosen over a zip because it is read and
checked with the standard library alone, shows what it holds in any text editor, and a
truncated one is not JSON at all:

    {"format": "catacombs-automa export", "version": 1, "kind": "session" | "campaign",
     "name": "evening",
     "files": [{"path": "campaign.jsonl", "sha256": "...", "text": "..."}, ...],
     "sha256": "<SHA-256 of the files' paths and digests, one `PATH SHA256` line each>"}

It is self-checking twice over: each file's bytes must match its `sha256` and the list must
match the whole's; then the folder it makes must pass the checks the logs carry (each log's
hash chain, its scenario's fingerprint, a replay: `automa log --verify`, `automa campaign log
--verify`) before it is put in place. Nothing is ever written over: the target must not exist,
and the folder appears whole or not at all (built beside it, then renamed).

Kept out: the folder's lock, temporary files of an atomic write, and the board's open-question
file (answers to a question no input has logged yet)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from msgspec import Struct

from automa.catalog.load import Catalog
from automa.errors import InputError

FORMAT = "catacombs-automa export"
VERSION = 1
SUFFIX = ".automa.json"
MAX_BYTES = 64 * 1024 * 1024  # an export this large is not one evening's
LEFT_OUT = frozenset({".lock", "open-question.json"})  # not records: a lock, an unlogged answer
SAFE_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,120}", re.ASCII)
MAX_DEPTH = 4  # campaign.jsonl, rooms/NN-room/log.jsonl: nothing deeper is a record


class BundleKind(StrEnum):
    SESSION = "session"
    CAMPAIGN = "campaign"


class BadBundle(InputError):
    """A file that is not an export, or one that does not check out: one line, exit 2."""


class Bundle(Struct, frozen=True):
    kind: BundleKind
    name: str
    files: tuple[tuple[str, bytes], ...]  # (path relative to the folder, bytes)


def kind_of(folder: Path) -> BundleKind:
    """A campaign folder (campaign.jsonl) or a battle session (log.jsonl)."""
    from automa.campaign.log import LOG as CAMPAIGN_LOG
    from automa.session.store import LOG

    if (folder / CAMPAIGN_LOG).is_file():
        return BundleKind.CAMPAIGN
    if (folder / LOG).is_file():
        return BundleKind.SESSION
    if not folder.is_dir():
        raise InputError(f"{folder}: no such session folder")
    raise InputError(f"{folder}: neither a session (no log.jsonl) nor a campaign (no "
                     f"campaign.jsonl)")


def _kept(folder: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or path.is_symlink() or path.name in LEFT_OUT \
                or any(part.startswith(".") for part in relative.parts):
            continue
        yield relative.as_posix(), path


def _digest(files: Mapping[str, str]) -> str:
    listed = "".join(f"{path} {sha}\n" for path, sha in sorted(files.items()))
    return hashlib.sha256(listed.encode("utf-8")).hexdigest()


def export_bytes(folder: Path) -> bytes:
    """The folder as one file's bytes. A read, so it takes no lock and works while another
    window is in the middle of an activation: the logs are append-only, and a line being
    written as it is read is a cut-off last line, which every reader ignores (an input that
    had not completed when the export was made)."""
    kind = kind_of(folder)
    entries: list[dict[str, str]] = []
    for relative, path in _kept(folder):
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
        entry = {"path": relative, "sha256": hashlib.sha256(data).hexdigest()}
        try:
            entry["text"] = data.decode("utf-8")
        except UnicodeDecodeError:
            entry["base64"] = base64.b64encode(data).decode("ascii")
        entries.append(entry)
    whole = {"format": FORMAT, "version": VERSION, "kind": kind.value,
             "name": folder.resolve().name, "files": entries,
             "sha256": _digest({e["path"]: e["sha256"] for e in entries})}
    return (json.dumps(whole, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def export_name(folder: Path) -> str:
    return f"{folder.resolve().name}{SUFFIX}"


def _path(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise BadBundle(f"{where}: 'path' is not a name")
    parts = value.split("/")
    if len(parts) > MAX_DEPTH or not all(SAFE_PART.fullmatch(p) and ".." not in p
                                         for p in parts):
        raise BadBundle(f"{where}: {value[:80]!r} is not a path inside the folder")
    return value


def _file(entry: object, number: int) -> tuple[str, bytes]:
    where = f"file {number}"
    if not isinstance(entry, dict):
        raise BadBundle(f"{where}: not an object")
    path = _path(entry.get("path"), where)
    sha = entry.get("sha256")
    if "text" in entry and isinstance(entry["text"], str):
        data = entry["text"].encode("utf-8")
    elif "base64" in entry and isinstance(entry["base64"], str):
        try:
            data = base64.b64decode(entry["base64"], validate=True)
        except ValueError:
            raise BadBundle(f"{where} ({path}): its base64 is damaged") from None
    else:
        raise BadBundle(f"{where} ({path}): holds neither 'text' nor 'base64'")
    if hashlib.sha256(data).hexdigest() != sha:
        raise BadBundle(f"{path}: its bytes do not match its sha256 (changed or damaged "
                        f"since the export)")
    return path, data


def read_bundle(data: bytes, source: str) -> Bundle:
    """The export in `data` (read from `source`), every digest checked; one line naming what
    is wrong otherwise."""
    if len(data) > MAX_BYTES:
        raise BadBundle(f"{source}: over {MAX_BYTES // 2**20} MB: not an automa export")
    try:
        whole: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        cut = data.rstrip().endswith(b"}") is False and data.lstrip().startswith(b"{")
        raise BadBundle(f"{source}: not an automa export" + (
            " (it is cut off: the file is incomplete)" if cut else " (not JSON)")) from None
    return bundle_of(whole, source)


def bundle_of(whole: object, source: str) -> Bundle:
    """An export already read as JSON (the board's upload), every digest checked."""
    if not isinstance(whole, dict) or whole.get("format") != FORMAT:
        raise BadBundle(f"{source}: not an automa export (no \"format\": {FORMAT!r})")
    if whole.get("version") != VERSION:
        raise BadBundle(f"{source}: export version {whole.get('version')!r}; this automa "
                        f"reads version {VERSION}")
    try:
        kind = BundleKind(str(whole.get("kind")))
    except ValueError:
        raise BadBundle(f"{source}: 'kind' is neither session nor campaign") from None
    name = whole.get("name")
    if not isinstance(name, str) or not SAFE_PART.fullmatch(name):
        raise BadBundle(f"{source}: 'name' is not a folder name")
    entries = whole.get("files")
    if not isinstance(entries, list) or not entries:
        raise BadBundle(f"{source}: no files")
    files = tuple(_file(entry, n) for n, entry in enumerate(entries, start=1))
    paths = [p for p, _ in files]
    if len(set(paths)) != len(paths):
        raise BadBundle(f"{source}: a file is listed twice")
    digests = {p: hashlib.sha256(d).hexdigest() for p, d in files}
    if whole.get("sha256") != _digest(digests):
        raise BadBundle(f"{source}: the list of files does not match its sha256 (a file "
                        f"added, dropped or renamed since the export)")
    needed = "campaign.jsonl" if kind == BundleKind.CAMPAIGN else "log.jsonl"
    if needed not in paths:
        raise BadBundle(f"{source}: a {kind} export without {needed}")
    return Bundle(kind, name, files)


def verify_folder(folder: Path, kind: BundleKind, catalog: Catalog) -> list[str]:
    """What the logs' own checks find wrong in `folder`, one line each: each log's chain and
    replay (a campaign's and each of its rooms')."""
    from automa.campaign import log as campaign_log
    from automa.campaign.battles import ROOMS_DIR
    from automa.errors import AutomaError
    from automa.session.mend import verify
    from automa.session.store import LOG

    sessions = [folder] if kind == BundleKind.SESSION else sorted(
        p.parent for p in (folder / ROOMS_DIR).glob(f"*/{LOG}"))
    problems: list[str] = []
    if kind == BundleKind.CAMPAIGN:
        problems += campaign_log.check(folder)[0]
    for session in sessions:
        problems += list(verify(session, catalog).problems)
    if not problems and kind == BundleKind.CAMPAIGN:
        from automa.campaign.store import Campaign

        try:
            Campaign.open(folder, catalog, catalog.data_dir)  # the players' routes too
        except AutomaError as error:
            problems.append(str(error))
    return problems


def free_place(parent: Path, name: str) -> Path:
    """`parent/name`, or the first `name-2`, `name-3`... that does not exist."""
    place, number = parent / name, 1
    while place.exists() or place.is_symlink():
        number += 1
        place = parent / f"{name}-{number}"
    return place


def import_bundle(bundle: Bundle, target: Path, catalog: Catalog) -> Path:
    """The folder written at `target` (which must not exist), checked before it appears."""
    if target.exists() or target.is_symlink():
        raise InputError(f"{target}: already exists; nothing is written over (choose another "
                         f"place with --to)")
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".import",
                                         dir=parent))
    except OSError as exc:
        raise InputError(f"{target}: cannot be made ({exc.strerror})") from None
    try:
        for relative, data in bundle.files:
            path = building / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        os.chmod(building, 0o777 & ~_umask())
        problems = verify_folder(building, bundle.kind, catalog)
        if problems:
            shown = problems[0].replace(str(building), target.name)
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise BadBundle(f"the export does not check out: {shown}{more}")
        try:
            os.rename(building, target)  # refuses a target made meanwhile (a non-empty one)
        except OSError as exc:
            raise InputError(f"{target}: cannot be made ({exc.strerror})") from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return target


def _umask() -> int:
    from automa.storage import current_umask

    return current_umask()
