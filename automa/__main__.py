from automa.cli.entry import main

main()
