"""Each part of the web app keeps its addresses in a module of its own here."""
