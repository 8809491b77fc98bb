"""Benchmarks (`make bench`): plain scripts, not part of `make test`'s pass/fail."""
