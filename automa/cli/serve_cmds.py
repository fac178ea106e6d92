"""`automa serve`: the live board, a local web page on a session (automa/web)."""

from __future__ import annotations

from pathlib import Path

import click

from automa.cli.main import cli, reports_errors
from automa.cli.session_cmds import open_session, session_option

DEFAULT_PORT = 8765


@cli.command()
@session_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Only this machine can reach 127.0.0.1; "
                   "0.0.0.0 lets a phone or tablet on the network watch the battle.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port (0: any free port; the first line printed says which).")
@click.option("--remote-control", is_flag=True,
              help="Let other machines on the network drive the battle too; without it they "
                   "only watch (this machine always drives).")
@click.pass_context
@reports_errors
def serve(ctx: click.Context, folder: Path, host: str, port: int, remote_control: bool) -> None:
    """The live board: the session as a web page beside the table, driven by touch or mouse,
    while the terminal commands work on the same session. Ctrl-C stops it; everything is
    already in the session's log. Given a campaign folder, it follows the campaign from room
    to room, and starts, ends and visits rooms itself.

    \b
    Examples:
      automa serve --session my-battle       then open the address it prints
      automa serve --session evening         a campaign: the whole evening
    """
    from automa.campaign.log import LOG as CAMPAIGN_LOG
    from automa.errors import InputError
    from automa.web.api import Board
    from automa.web.server import is_loopback, make_server, url_of

    if (folder / CAMPAIGN_LOG).is_file():  # a campaign: the board follows it room to room
        from automa.web.api import ApiError

        board = Board(None, ctx.obj["data_dir"], campaign=folder)
        try:
            board.follow()
        except ApiError as error:
            raise InputError(f"{folder}: {error}") from None
    else:
        board = Board(open_session(ctx, folder), ctx.obj["data_dir"])
    try:
        server = make_server(board, host, port, remote_control)
    except OSError as error:
        raise InputError(f"--host {host} --port {port}: cannot listen there "
                         f"({error.strerror or error})") from None
    url = url_of(server, host)
    click.echo(url)
    if not is_loopback(host):
        reach = "see and drive" if remote_control else "see (not change)"
        click.echo(f"automa: warning: listening on {host}: anyone on the network who can reach "
                   f"this machine at port {server.server_address[1]} can {reach} the "
                   f"battle", err=True)
    click.echo(f"The board of {folder}: open {url} in a browser; Ctrl-C stops it.", err=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        click.echo("\nStopped. Everything is saved in the session's log.", err=True)
    finally:
        server.server_close()
