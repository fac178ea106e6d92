"""Shared fixtures: the shipped catalog and a small scenario builder for rule tests."""

from __future__ import annotations

import atexit
import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from automa.user_cache import CACHE_ENV

# The suite never touches the user's own cache (~/.cache/automa: the validation marker and the
# parsed data tables; automa/user_cache.py): one fresh folder for the whole run, set before any
# data is read and inherited by every command the tests start. tests/test_cold_start.py sets
# its own.
os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="automa-test-cache-")
atexit.register(shutil.rmtree, os.environ[CACHE_ENV], True)

from automa.catalog.load import Catalog, load_catalog  # noqa: E402
from automa.model.scenario import Scenario  # noqa: E402
from automa.scenario.load import parse_scenario  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

# The command line as a separate process, through the interpreter running the tests: it works
# whether or not the virtual environment is activated (no `automa` on PATH needed).
AUTOMA = [sys.executable, "-m", "automa"]
AUTOMA_SHELL = " ".join(shlex.quote(part) for part in AUTOMA)

OPEN_MAT = (Path(__file__).parent / "data_inline_mat.toml").read_text()



@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


def scenario_from(text: str, catalog: Catalog, inline_mat: bool = True) -> Scenario:
    """A scenario from TOML text; with `inline_mat` the open test mat above is appended."""
    return parse_scenario(text + (OPEN_MAT if inline_mat else ""), "test.toml", catalog)


def new_session(tmp_path: Path, scenario_text: str, *options: str) -> Path:
    """`automa new` on a scenario written from text; the session folder (`--dice ...` etc.)."""
    from automa.cli.main import cli

    scenario = tmp_path / "scenario.toml"
    scenario.write_text(scenario_text)
    folder = tmp_path / "s"
    result = CliRunner().invoke(cli, ["new", str(scenario), "--session", str(folder), *options])
    assert result.exit_code == 0, result.output
    return folder


def play_lines(folder: Path, lines: list[str]) -> str:
    """`automa play` with these lines typed; its whole output (it must end with exit 0)."""
    from automa.cli.main import cli

    result = CliRunner().invoke(cli, ["play", "--session", str(folder)],
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def logged_inputs(folder: Path) -> list[dict[str, Any]]:
    """The session log's inputs, header left out."""
    return [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()[1:]]
