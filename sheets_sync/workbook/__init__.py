"""The workbook people type into: where its labels and tables sit (layout), its protection,
the change log (Журнал) and a new tournament's tabs (tournament_setup)."""
