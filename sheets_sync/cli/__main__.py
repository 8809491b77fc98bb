"""`python -m sheets_sync.cli` runs the command line."""

from sheets_sync.cli import main

main()
