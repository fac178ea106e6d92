from automa.cli.main import cli

cli()
