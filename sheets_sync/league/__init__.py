"""A league: many workbooks, one rating — the league file and its replay (league_file), the
«Лига» workbook (book), the rating schemes' files (ratings), the bundled example league (example)."""
