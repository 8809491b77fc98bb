"""`python -m sheets_sync`: the command line, as the `sheets-sync` script runs it."""

from sheets_sync.cli import main

if __name__ == "__main__":
    main()
