"""Registration in the server (issue 45): the public form, the registration writer that puts each
application as a row of the Players tab, the mirror of the states the sheet holds, the organizer's
applications and check-in pages, the player's own page and the self check-in. The workbook is the
record: the server keeps only what the sheet must not (the contacts, the player's link)."""
