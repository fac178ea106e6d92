"""One writer at a time: an exclusive advisory lock on the session folder's `.lock` file.

The kernel frees an flock when its holder dies, however it dies, so a killed window never blocks
the next writer. The holder writes its pid and what it is doing into the file, so a refused
writer can say who holds the session. The file is never deleted (deleting lock files races).
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from automa.session.log import SessionError

LOCK = ".lock"
ACTIVATION = "activation"  # held while the players answer questions: may take minutes
WRITE = "write"  # held for one short write: milliseconds
WAIT_SECONDS = 5.0  # how long a writer waits for a short write to finish
POLL_SECONDS = 0.01


def _open_lock(folder: Path) -> int:
    path = folder / LOCK
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SessionError(f"{path}: is a symbolic link; a session's files must be its "
                               f"own (remove the link)") from None
        raise SessionError(f"{path}: cannot be written ({exc.strerror}); the session can be "
                           f"read but not played on here") from None


def holder(folder: Path) -> tuple[str, str]:
    """(pid, purpose) the current holder wrote, or ("?", "") if it has not written yet."""
    try:
        with (folder / LOCK).open("r", encoding="utf-8") as handle:
            pid, _, purpose = handle.read(100).strip().partition(" ")
    except (OSError, UnicodeDecodeError):
        return "?", ""
    return (pid if pid.isdigit() else "?"), purpose


class SessionBusy(SessionError):
    """Another window holds the session (in the middle of an activation, or a long write):
    trying again once it is done will do (`automa play` waits for it)."""


def _refusal(folder: Path) -> SessionError:
    pid, purpose = holder(folder)
    if purpose == ACTIVATION and pid == str(os.getpid()):
        return SessionError(f"{folder}: this window is in the middle of an activation; leave "
                            f"its questions (or finish them) before another input")
    if purpose == ACTIVATION:
        return SessionBusy(f"{folder}: another window is in the middle of an activation "
                           f"(pid {pid}); try again when it is done")
    return SessionBusy(f"{folder}: another window is writing to this session (pid {pid}); "
                       f"try again in a moment")


def busy_elsewhere(folder: Path) -> str | None:
    """The pid of another live window in the middle of an activation on this session (its
    players are being asked: it may take minutes), or None."""
    pid, _ = holder(folder)
    return pid if pid != str(os.getpid()) and _asking(folder) and is_held(folder) else None


@contextmanager
def session_lock(folder: Path, purpose: str = WRITE,
                 wait: float | None = None) -> Iterator[None]:
    """Hold the session's write lock. A short write by another window is waited for (up to
    `wait` seconds); an activation in progress elsewhere is refused at once (SessionError)."""
    limit = WAIT_SECONDS if wait is None else wait
    fd = _open_lock(folder)
    try:
        deadline = time.monotonic() + limit
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if _asking(folder) or time.monotonic() >= deadline:
                    raise _refusal(folder) from None
                time.sleep(POLL_SECONDS)
        _note(fd, f"{os.getpid()} {purpose}\n")
        try:
            yield
        finally:
            _note(fd, "")
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _note(fd: int, text: str) -> None:
    try:
        os.ftruncate(fd, 0)
        if text:
            os.pwrite(fd, text.encode(), 0)
    except OSError:
        pass  # who holds it is only a courtesy for a refused writer


def _asking(folder: Path) -> bool:
    """The holder is a live process in the middle of an activation (waiting on people)."""
    pid, purpose = holder(folder)
    if purpose != ACTIVATION or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False  # a note left by a killed holder
    except OSError:
        return True
    return True


def is_held(folder: Path) -> bool:
    """Another process holds the lock now (it may be in the middle of writing a line)."""
    try:
        fd = os.open(folder / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False
