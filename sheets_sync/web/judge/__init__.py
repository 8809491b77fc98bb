"""The judge's page on the server and in ``sheets-sync app`` (issue 44): private links per table
(:mod:`.links`), the games the sync leaves for the page (:mod:`.games`), the form's check
(:mod:`.form`), the page's API (:mod:`.api`), the one writer job per tournament that puts the
judges' saves into the protocol tabs (:mod:`.writer`) and the chief judge's page (:mod:`.chief`).

The pure rules are :mod:`scoring.game`; nothing here decides what a protocol means.
"""
