"""The AI's Portal Trap, result 12, on a hero: the note tells the players how the hero fights
the Kraken from the AI's prompt (`cave HERO SHOTS portal` in `automa play`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from automa.cli.main import cli

PLAYTHROUGH = Path(__file__).resolve().parent / "playthroughs" / "47-portal-trap.toml"


def test_result_twelve_names_the_cave_command(tmp_path: Path) -> None:
    # rule: Portal Trap, 12: "no damage, Hidden Cave or a rune of their choice"; and the Hidden
    # Cave: "Only one hero may visit the Hidden Cave at a time, unless a hero is sent there via
    # the Portal Trap."
    scenario = tmp_path / "portal-12.toml"
    scenario.write_text(PLAYTHROUGH.read_text().replace("d12 = [7]", "d12 = [12]"))
    result = CliRunner().invoke(cli, ["turn", str(scenario), "--seed", "1"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())  # the note may be wrapped
    assert "Roll the D12 (portal trap) → 12" in out
    assert "Elf's players put it on the Hidden Cave card or a free rune of their choice" in out
    assert "fights the Kraken from the AI's prompt in `automa play`: `cave elf SHOTS portal`" \
        in out
