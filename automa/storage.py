"""Files on disk are written atomically: a crash never leaves a half-written save. A write that
fails (a read-only folder, a full disk) is one line and exit 5, and what was there stays."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

from automa.errors import AutomaError

_UMASK = threading.Lock()


class WriteError(AutomaError):
    """A file could not be written (permissions, a full disk): nothing half-written is left."""

    exit_code = 5


def current_umask() -> int:
    with _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename over `path`.
    The file gets the permissions a plain write would give (0666 less the umask)."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent)
    except OSError as exc:
        raise WriteError(f"{target}: cannot be written ({exc.strerror})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), 0o666 & ~current_umask())
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise WriteError(f"{target}: cannot be written ({exc.strerror}); it is unchanged") \
            from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
