from cribstats.cli.app import main

main()
