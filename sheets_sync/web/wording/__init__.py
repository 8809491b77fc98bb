"""Each part of the web app keeps its words in a module of its own here."""
