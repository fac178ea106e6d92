"""The kept code of the methods dataclasses writes as text (automa/model/method_code.py): the
code found for a text is the code `exec` compiles from it, a record made from kept code is the
standard record, and a damaged, foreign or unwritable cache costs only the compile."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from automa import user_cache
from automa.model import method_code, records
from automa.model.method_code import FILE_NAME, MethodCode


def compiled(text: str) -> object:
    """As dataclasses' own `exec` compiles it: that module has no future imports (this one has
    `annotations`, which would make the annotations text)."""
    return compile(text, "<string>", "exec", dont_inherit=True)


TEXT = "def __create_fn__(_return_type):\n def __init__(self,a:_return_type)->_return_type:\n" \
       "  self.a=a\n return __init__"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv(user_cache.CACHE_ENV, str(cache))
    return cache


def test_the_code_kept_for_a_text_is_what_exec_compiles_from_it(folder: Path) -> None:
    """With no future flags (records.py has `annotations`): the annotations of a method made
    from kept code are objects, as the standard decorator's."""
    writer = MethodCode()
    code = writer.code(TEXT)
    writer.store()
    reader = MethodCode()
    kept = reader.code(TEXT)
    assert kept is not code and kept == code == compiled(TEXT)
    assert reader.code(TEXT) is not kept  # a code object of its own each time, as compiled
    assert kept != compile(TEXT, "<string>", "exec")  # inheriting this module's flags
    made: dict[str, object] = {}
    exec(kept, {}, made)
    init = made["__create_fn__"](int)  # type: ignore[operator]
    assert init.__annotations__ == {"a": int, "return": int}


def test_a_prepared_text_is_kept_by_the_text_as_given(folder: Path) -> None:
    """`prepare` (records.py sets a frozen record's fields at once) runs on a text's first
    compile only: the code kept under the text as given is the prepared text's."""
    prepared: list[str] = []

    def prepare(text: str) -> str:
        prepared.append(text)
        return text.replace("self.a=a", "self.a=a*2")

    writer = MethodCode()
    assert writer.code(TEXT, prepare) == compiled(TEXT.replace("self.a=a", "self.a=a*2"))
    writer.store()
    assert MethodCode().code(TEXT, prepare) == compiled(TEXT.replace("self.a=a", "self.a=a*2"))
    assert prepared == [TEXT]  # found the second time, not prepared again


@pytest.mark.skipif(not records._COPIED, reason="this Python's records are the standard ones")
def test_records_from_kept_code_are_the_standard_records(folder: Path) -> None:
    """Two runs in fresh interpreters: the first compiles and keeps every text, the second
    finds every one; both make each record as the standard decorator does."""
    script = ("from tests.test_records import RECORDS, STANDARD, behaviour\n"
              "assert all(behaviour(RECORDS[n]) == behaviour(STANDARD[n]) for n in RECORDS)\n"
              "assert all(RECORDS[n].__init__.__annotations__\n"
              "           == STANDARD[n].__init__.__annotations__ for n in RECORDS)\n"
              "from automa.model import records\n"
              "print(records._KEPT_CODE._writer is not None)\n")
    env = {**os.environ, user_cache.CACHE_ENV: str(folder)}
    root = Path(__file__).resolve().parents[1]

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=root,
                              capture_output=True, text=True, check=True)
        return done.stdout.split()[-1]

    assert run() == "True"  # compiled: kept at exit
    assert (folder / FILE_NAME).is_file()
    assert run() == "False"  # every text found


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign-python", "not-code"])
def test_a_damaged_or_foreign_file_is_ignored_and_written_anew(folder: Path, damage: str) -> None:
    writer = MethodCode()
    writer.code(TEXT)
    writer.store()
    path = folder / FILE_NAME
    blob = path.read_bytes()
    if damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "flip":
        blob = blob[:-5] + bytes([blob[-5] ^ 1]) + blob[-4:]
    elif damage == "foreign-python":
        blob = user_cache.sealed(method_code.HEADER + b"0" * 64 + b"\n",
                                 blob.split(b"\n", 3)[-1])
    else:
        import marshal

        blob = user_cache.sealed(method_code._head(), marshal.dumps({TEXT: "print('hi')"}))
    path.write_bytes(blob)
    reader = MethodCode()
    assert reader.code(TEXT) == compiled(TEXT)
    assert reader._writer is not None  # compiled again, so the file is written anew
    reader.store()
    again = MethodCode()
    again.code(TEXT)
    assert again._writer is None


def test_the_texts_used_last_are_kept_first(folder: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"def f{i}():\n return {i}" for i in range(5)]
    first = MethodCode()
    for text in texts:
        first.code(text)
    first.store()
    monkeypatch.setattr(method_code, "MAX_KEPT", 3)
    second = MethodCode()
    second.code(texts[0])  # the oldest, used again
    second.code("def g():\n return 'new'")
    second.store()
    assert list(method_code._read(str(folder / FILE_NAME))) == [
        texts[0], "def g():\n return 'new'", texts[1]]


def test_only_the_process_that_compiled_writes(folder: Path) -> None:
    """A forked copy (multiprocessing's workers, a plain fork) leaves the file to its parent."""
    writer = MethodCode()
    writer.code(TEXT)
    writer._writer = os.getpid() + 1  # as the copy a fork made sees it
    writer.store()
    assert not (folder / FILE_NAME).exists()


def test_a_file_in_a_folder_others_may_write_is_not_read(folder: Path) -> None:
    writer = MethodCode()
    writer.code(TEXT)
    writer.store()
    folder.chmod(0o777)
    reader = MethodCode()
    reader.code(TEXT)
    assert reader._writer is not None  # compiled anew, not read


def test_a_forked_child_makes_records_whatever_was_held_at_the_fork() -> None:
    """Another thread held the kept code's lock, mid-swap, when the process forked: the child
    starts with the lock free and dataclasses as it was."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    kept = records._KEPT_CODE
    module = vars(dataclasses)
    with kept._lock:
        module["exec"] = records._exec_kept
        try:
            child = os.fork()
            if child == 0:  # pragma: no cover (the child's report is its exit code)
                signal.alarm(20)  # a lock held for ever fails the test, not the run
                ok = "exec" not in vars(dataclasses)
                made = records.dataclass(frozen=True)(
                    type("AfterFork", (), {"__annotations__": {"only_in_this_test": "int"}}))
                os._exit(0 if ok and made(3).only_in_this_test == 3 else 1)
        finally:
            del module["exec"]
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_keep_leaves_no_scrap_when_it_cannot_write(folder: Path) -> None:
    (folder / "taken").mkdir(parents=True, mode=0o700)  # a folder where the file would go
    user_cache.keep("taken", b"data")
    assert sorted(p.name for p in folder.iterdir()) == ["taken"]


def test_no_cache_folder_keeps_nothing_and_still_compiles(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(user_cache.CACHE_ENV, "")
    writer = MethodCode()
    assert writer.code(TEXT) == compiled(TEXT)
    writer.store()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(user_cache.CACHE_ENV, str(blocker / "cache"))
    writer = MethodCode()
    writer.code(TEXT)
    writer.store()  # cannot make the folder: nothing kept, nothing raised
    assert not (blocker / "cache").exists()


def test_a_folder_others_may_write_gets_no_code(folder: Path) -> None:
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)
    writer = MethodCode()
    writer.code(TEXT)
    writer.store()
    assert not (folder / FILE_NAME).exists()
