"""The click-free actions: everything a command does, with no argument parsing and no terminal.

The command line (:mod:`sheets_sync.cli`) and the web app are two thin faces over these modules;
tests call them directly. One module per family of commands: :mod:`.sync` (sync and its report),
:mod:`.init` (a new workbook), :mod:`.draw` (draw, advance, replace), :mod:`.evening` (a club
evening), :mod:`.export` (site, VK post, MWT export, printable protocols and seating).
"""
