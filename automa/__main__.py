from automa.cli.main import main

main()
