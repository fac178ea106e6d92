"""Regenerate the golden printouts of the playthrough scenarios in tests/playthroughs/.

Each scenario NN-short-name.toml is run as `automa turn NN-short-name.toml --seed 1` and its
printout is written to NN-short-name.out next to it. Run it after a deliberate change to the
engine or the printout, then read the diff (`git diff tests/playthroughs`) before committing:

    python tests/regenerate_playthroughs.py              # every scenario
    python tests/regenerate_playthroughs.py 07 flame     # only names containing "07" or "flame"

tests/test_playthroughs.py compares the same run with the .out files.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

PLAYTHROUGHS = Path(__file__).resolve().parent / "playthroughs"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_GOLDENS = PLAYTHROUGHS / "examples"
SEED = "1"


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def golden(self) -> str:
        """What the .out file holds: the printout, and on failure the exit code and stderr."""
        if self.exit_code == 0:
            return self.stdout
        return f"{self.stdout}[exit code {self.exit_code}]\n{self.stderr}"


def scenario_files() -> list[Path]:
    return sorted(PLAYTHROUGHS.glob("*.toml"))


def run_scenario(path: Path, as_json: bool = False) -> Run:
    """`automa turn PATH --seed 1 [--json]` through click's CliRunner."""
    from automa.cli.main import cli

    args = ["turn", str(path), "--seed", SEED, *(["--json"] if as_json else [])]
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    # error lines name the file: keep the .out independent of where the checkout lives
    stderr = result.stderr.replace(str(path), path.name)
    return Run(result.exit_code, result.stdout, stderr)


def golden_path(path: Path) -> Path:
    return path.with_suffix(".out")


def examples() -> list[Path]:
    """Every shipped example: scenario files and recorded sessions (folders with a log)."""
    return sorted([*EXAMPLES.glob("*.toml"),
                   *(d for d in EXAMPLES.iterdir() if (d / "log.jsonl").is_file())])


def example_golden(example: Path) -> Path:
    return EXAMPLE_GOLDENS / f"{example.stem if example.is_file() else example.name}.out"


def run_example(example: Path) -> Run:
    """A scenario's AI turn (`turn --seed 1`), or a session's replay (`replay --auto`)."""
    from automa.cli.main import cli

    args = (["turn", str(example), "--seed", SEED] if example.is_file()
            else ["replay", str(example), "--auto"])
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr.replace(str(example),
                                                                      example.name))


def main(names: list[str]) -> int:
    chosen = [p for p in scenario_files() if not names or any(n in p.stem for n in names)]
    shipped = [e for e in examples() if not names or any(n in e.name for n in names)]
    if not chosen and not shipped:
        print(f"nothing in {PLAYTHROUGHS} or {EXAMPLES} matches {' '.join(names)}",
              file=sys.stderr)
        return 1
    for run, golden in [*((run_scenario(p), golden_path(p)) for p in chosen),
                        *((run_example(e), example_golden(e)) for e in shipped)]:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(run.golden(), encoding="utf-8")
        status = "ok" if run.exit_code == 0 else f"exit code {run.exit_code}"
        print(f"{golden.name}: {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
