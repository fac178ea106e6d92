"""A refused command line is one line naming the command and pointing at its help, exit 2
(issue 27, point 14): a bad option value, a missing argument, an unknown command or option.
Done once, by the classes every command and group of the click tree is made of."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from automa.cli.main import AutomaCommand, AutomaGroup, LazyGroup, cli


def _tree(command: click.Command, ctx: click.Context) -> Iterator[tuple[str, click.Command]]:
    yield ctx.command_path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, f"{ctx.command_path} lists {name} but has none"
            yield from _tree(sub, click.Context(sub, info_name=name, parent=ctx))


def test_every_command_and_group_is_of_the_one_line_classes() -> None:
    """Sub-commands inherit the classes from the root group (`command_class`, `group_class`);
    a command made apart (`click.command`) and added must name its class itself."""
    tree = dict(_tree(cli, click.Context(cli, info_name="automa")))
    assert isinstance(cli, LazyGroup) and {"automa new", "automa campaign visit",
                                           "automa data check", "automa hidden-cave fight"} \
        <= set(tree)
    for path, command in tree.items():
        if isinstance(command, click.Group):
            assert isinstance(command, AutomaGroup), path
            assert path == "automa" or not isinstance(command, LazyGroup), path
        else:
            assert isinstance(command, AutomaCommand), path


@pytest.mark.parametrize(("args", "path", "message"), [
    (["new", "--dice", "dice"], "automa new",
     "Invalid value for '--dice': 'dice' is not one of 'virtual', 'physical'."),
    (["new"], "automa new", "Missing argument 'SCENARIO'."),
    (["setup", "--heroes", "elf=x"], "automa setup", "Missing argument 'ROOM'."),
    (["nosuch"], "automa", "No such command 'nosuch'."),
    (["campaign", "nosuch"], "automa campaign", "No such command 'nosuch'."),
    (["turn", "x.toml", "--bogus"], "automa turn", "No such option '--bogus'."),
    (["--bogus"], "automa", "No such option '--bogus'."),
    (["campaign", "visit", "--price", "x"], "automa campaign visit",
     "Invalid value for '--price': 'x' is not a valid integer range."),
    (["data", "check", "a", "b"], "automa data check", "Got unexpected extra argument (b)"),
    (["--data-dir", "."], "automa", "Missing command."),
])
def test_a_refused_command_line_is_one_line(args: list[str], path: str, message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr == f"{path}: {message} (`{path} --help` says what it takes)\n"
    assert result.stdout == ""


def test_a_refused_value_is_shown_not_obeyed() -> None:
    """A terminal escape typed as a value is shown as an escape, on the one line."""
    result = CliRunner().invoke(cli, ["new", "--dice", "\x1b[2Jx\ny"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "\\x1b[2Jx\\ny" in result.stderr and "\x1b" not in result.stderr


@pytest.mark.parametrize("args", [[], ["campaign"], ["data"], ["hidden-cave"]])
def test_a_bare_group_still_shows_its_help(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.output.startswith(f"Usage: {' '.join(['automa', *args])} [OPTIONS] COMMAND")
    assert "Commands:" in result.output and "says what it takes" not in result.output


def test_a_command_invoked_on_its_own_refuses_in_one_line() -> None:
    """The command class does it, not only the root group: a sub-command run by itself."""
    result = CliRunner().invoke(cli.get_command(click.Context(cli), "new"), ["--dice", "x"],
                                prog_name="automa new")
    assert result.exit_code == 2
    assert result.stderr.startswith("automa new: Invalid value for '--dice'")
    assert result.stderr.count("\n") == 1
