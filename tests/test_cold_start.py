"""Cold start: a turn imports and parses only what it needs, and the note that the data was
checked whole is trusted only for exactly the same bytes, in a safe folder, when intact."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from automa import user_cache
from automa.catalog import validated
from automa.catalog.load import Catalog, RoomsOnRead, _load, build_catalog, load_catalog
from automa.catalog.problems import Problems

ROOT = Path(__file__).resolve().parents[1]
DEMO = str(ROOT / "examples" / "demo-battle.toml")
NOT_FOR_A_TURN = ("automa.session", "automa.campaign", "automa.cli.session_cmds",
                  "automa.cli.play", "automa.cli.campaign_cmds", "automa.render.html",
                  "automa.render.svg", "automa.model.rooms", "automa.engine.setup",
                  "automa.engine.forecast", "automa.scenario.save", "importlib.resources",
                  "tempfile", "automa.catalog.consistency", "difflib", "pathlib", "urllib",
                  "ipaddress", "fnmatch", "automa.cli.setup_cmds", "automa.catalog.todo")


def read_on_demand(catalog: Catalog) -> bool:
    """Whether `catalog` was read on demand (the data checked whole before), not whole now."""
    return isinstance(catalog.rooms, RoomsOnRead)


def modules_after(args: list[str], cache: Path) -> set[str]:
    script = ("import sys\nfrom automa.cli.main import cli\n"
              "try:\n    cli(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print('\\n'.join(sys.modules), file=sys.stderr)\n")
    env = {**os.environ, user_cache.CACHE_ENV: str(cache)}
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True,
                          text=True, check=True)
    assert "AI turn" in done.stdout
    return set(done.stderr.split())


def test_a_turn_imports_no_session_campaign_web_or_setup_code(tmp_path: Path) -> None:
    first = modules_after(["turn", DEMO, "--seed", "7"], tmp_path / "cache")
    assert "automa.model.rooms" in first  # no marker yet: the data is checked whole
    loaded = modules_after(["turn", DEMO, "--seed", "7"], tmp_path / "cache")
    assert not sorted(m for m in loaded if m.startswith(NOT_FOR_A_TURN))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(user_cache.CACHE_ENV, str(folder))
    _load.cache_clear()
    yield folder
    _load.cache_clear()


def test_the_lazy_catalog_equals_the_whole_one_field_by_field(cache: Path) -> None:
    whole = load_catalog()
    assert not read_on_demand(whole)  # no marker yet: checked whole
    assert (cache / "validated").is_file()
    _load.cache_clear()
    lazy = load_catalog()
    assert read_on_demand(lazy)
    eager = build_catalog(None, Problems(collect=False))
    assert eager is not None
    for name in eager.__struct_fields__:  # the memos, a cache of each, compare equal
        assert getattr(lazy, name) == getattr(eager, name), name
    moved = replace(lazy, playmats={})  # as tests and tools do with the eager one
    assert moved.playmats == {} and moved.monsters == eager.monsters


def test_a_turn_parses_only_the_records_it_reads(cache: Path) -> None:
    from automa.catalog.load import ParsedOnRead
    from automa.engine.turn import run_turn
    from automa.scenario.load import load_scenario

    load_catalog()  # checked whole, noted
    _load.cache_clear()
    lazy = load_catalog()
    run_turn(load_scenario(Path(DEMO), lazy), lazy, 7)
    for name in ("behaviour", "monsters", "lords", "playmats"):
        records = getattr(lazy, name)
        assert isinstance(records, ParsedOnRead), name
    parsed = lazy.monsters._parsed  # type: ignore[attr-defined]
    assert 0 < len(parsed) < len(lazy.monsters) // 4
    assert list(lazy.playmats._parsed) == ["mausoleum"]  # type: ignore[attr-defined]
    whole = build_catalog(None, Problems(collect=False))
    assert whole is not None and lazy.monsters == whole.monsters
    assert len(lazy.monsters._parsed) == len(lazy.monsters)  # type: ignore[attr-defined]


def test_a_damaged_or_foreign_marker_is_ignored(cache: Path) -> None:
    load_catalog()
    marker = cache / "validated"
    marker.write_bytes(b"garbage\n" + b"0" * 63 + b"\n")
    _load.cache_clear()
    assert not read_on_demand(load_catalog())  # checked whole again, marker rewritten
    assert marker.read_text(encoding="ascii") == validated.data_digest(None) + "\n"
    _load.cache_clear()
    assert read_on_demand(load_catalog())


def test_damaged_or_stale_parsed_tables_are_never_used(cache: Path) -> None:
    from automa.catalog.locate import read_data_toml, read_toml, shipped_data_dir
    from automa.catalog.tables_cache import _entry_name, cached_tables

    path = shipped_data_dir() / "monsters.toml"
    truth = read_toml(path)
    assert read_data_toml(path) == truth  # parsed, then kept
    entry = cache / _entry_name(path)
    assert entry.is_file()
    text = path.read_text(encoding="utf-8")
    assert cached_tables(path, text) == truth
    assert cached_tables(path, text + "# an edit\n") is None  # other bytes: not this entry
    blob = entry.read_bytes()
    entry.write_bytes(blob[:-40] + bytes(40))  # damaged payload: its digest fails
    assert cached_tables(path, text) is None
    entry.write_bytes(blob[: len(blob) // 2])  # truncated
    assert cached_tables(path, text) is None
    assert read_data_toml(path) == truth and cached_tables(path, text) == truth  # rewritten


def test_parsed_tables_of_files_no_longer_read_do_not_pile_up(cache: Path) -> None:
    from automa.catalog import tables_cache

    cache.mkdir(mode=0o700)
    (cache / "validated").write_text("", encoding="ascii")
    for i in range(tables_cache.KEPT_ENTRIES + 5):
        old = cache / f"tables-old{i:03d}"
        old.write_bytes(b"x")
        os.utime(old, ns=(i * 10**9, i * 10**9))  # written one after another
    tables_cache.store_tables(cache / "data.toml", "a = 1", {"a": 1})
    left = sorted(p.name for p in cache.glob("tables-*"))
    assert len(left) == tables_cache.KEPT_ENTRIES
    assert tables_cache._entry_name(cache / "data.toml") in left  # the newest stays
    assert "tables-old000" not in left and "tables-old068" in left  # the oldest go first
    assert (cache / "validated").exists()


def test_any_change_of_a_user_data_file_means_a_whole_check(cache: Path, tmp_path: Path) -> None:
    user = tmp_path / "mine"
    user.mkdir()
    (user / "rooms.toml").write_text("", encoding="utf-8")
    before = validated.data_digest(user)
    (user / "rooms.toml").write_text("# a note\n", encoding="utf-8")
    assert validated.data_digest(user) != before
    assert validated.data_digest(None) not in (before, validated.data_digest(user))


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_is_not_used(cache: Path) -> None:
    cache.mkdir(mode=0o700)
    load_catalog()
    assert validated.is_validated(validated.data_digest(None))
    cache.chmod(0o777)
    assert not validated.is_validated(validated.data_digest(None))


def test_an_unwritable_cache_place_still_loads(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(user_cache.CACHE_ENV, str(blocker / "cache"))  # cannot be a folder
    _load.cache_clear()
    try:
        assert load_catalog().monsters
    finally:
        _load.cache_clear()


def test_an_empty_cache_setting_checks_whole_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(user_cache.CACHE_ENV, "")
    _load.cache_clear()
    try:
        assert not read_on_demand(load_catalog())
        _load.cache_clear()
        assert not read_on_demand(load_catalog())
    finally:
        _load.cache_clear()


def test_with_nowhere_to_keep_them_the_tables_are_not_even_written_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from automa.catalog import tables_cache

    def never(*args: object) -> bytes:
        raise AssertionError("written out for nowhere")

    monkeypatch.setattr(tables_cache, "_text_digest", never)
    monkeypatch.setattr(tables_cache.marshal, "dumps", never)
    monkeypatch.setenv(user_cache.CACHE_ENV, "")
    tables_cache.store_tables("monsters.toml", "text", {"a": 1})


def test_no_home_means_no_cache_rather_than_one_in_the_current_folder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(user_cache.CACHE_ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # as with no HOME at all
    assert user_cache.cache_folder() is None
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert user_cache.cache_folder() == "/somewhere/automa"


def test_a_cache_folder_under_an_unknown_user_is_none_not_a_folder_named_tilde(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(user_cache.CACHE_ENV, "~no-such-user-here/cache")
    assert user_cache.cache_folder() is None
    monkeypatch.setenv(user_cache.CACHE_ENV, "/tmp/some-cache")
    assert user_cache.cache_folder() == "/tmp/some-cache"


def test_a_one_shot_command_pauses_the_collector_and_restores_it() -> None:
    import gc

    from automa.cli.main import one_shot

    seen: list[bool] = []

    @one_shot
    def command(fail: bool) -> None:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("bad")

    assert gc.isenabled()
    frozen = gc.get_freeze_count()  # 3.12 starts with some objects frozen: never thawed here
    command(False)
    with pytest.raises(ValueError):
        command(True)
    assert seen == [False, False] and gc.isenabled()
    assert gc.get_freeze_count() == frozen  # nothing left out of collections for good
    gc.disable()
    try:
        command(False)
        assert not gc.isenabled()  # paused before: left paused
    finally:
        gc.enable()


@given(st.text(alphabet="/.a~ ", max_size=12))
def test_a_path_reads_as_pathlib_writes_it(text: str) -> None:
    from automa.cli.main import PathText, path_text

    assert path_text(text) == str(Path(text)) == PathText(text)


def test_the_automa_command_leaves_its_objects_to_the_exit_uncollected() -> None:
    """The console script builds the command line with the collector paused and on again
    after, then runs `main`, which freezes the collector as the process ends (the last
    collection over every live object was a sixth of a turn); the command still ends as click
    ends it (exit code and output), and the in-process `cli` the tests drive does not."""
    import subprocess
    import sys
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["automa"] == "automa.cli.entry:main"
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
             "sys.argv = ['automa', 'rulings', '1']\n"
             "import automa.cli.main as cli_main\n"
             "ran = cli_main.cli.main\n"
             "def checked(*args, **kwargs):\n"
             "    print('collecting', gc.isenabled())\n"
             "    return ran(*args, **kwargs)\n"
             "cli_main.cli.main = checked\n"
             "from automa.cli.entry import main\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("frozen True")
    assert "collecting True" in done.stdout  # on again before the command runs
    assert "1." in done.stdout or "#" in done.stdout  # the ruling itself was printed first
