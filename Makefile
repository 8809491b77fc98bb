# Two commands a fresh machine needs: `make demo` and `make test`.
PY      ?= python3
VENV    ?= .venv
BIN      = $(VENV)/bin
STAMP    = $(VENV)/.installed

.PHONY: demo test test-fast install-check bench venv clean example system-deps

$(STAMP): pyproject.toml
	bash .ci/system-deps.sh  # first: the test extra's PyICU is built against libicu-dev
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m sheets_sync.demo

test: $(STAMP)
	bash .ci/system-deps.sh
	$(BIN)/python -m pytest -n 2

# the quick loop while coding: no slow, browser or LibreOffice tests, fewer Hypothesis examples (< 1 min)
test-fast: $(STAMP)
	HYPOTHESIS_PROFILE=fast $(BIN)/python -m pytest -n 2 -m "not slow and not browser and not libreoffice"

# what organizers get: build the wheel, install it into a fresh venv in a temporary folder and run
# init, draw and sync there, outside the checkout (about a minute; also part of make test)
install-check: $(STAMP)
	$(BIN)/python -m pytest tests/test_install.py

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.season  # club seasons: its own section of docs/benchmarks.md
	$(BIN)/python -m bench.season_rating  # a player rating in a club season: its own section
	$(BIN)/python -m bench.team_draw  # the draw with teams: its own section
	$(BIN)/python -m bench.league  # a league of 50 workbooks: its own section
	$(BIN)/python -m bench.web_accounts  # the server's organizer pages with 500 tournaments: its own section
	$(BIN)/python -m bench.web  # the web dashboard with 500 tournaments: its own section
	$(BIN)/python -m bench.keeper  # the server keeping 500 sheets: its own section
	$(BIN)/python -m bench.connections  # 1,000 slow or idle connections held: its own section
	$(BIN)/python -m bench.storage  # the site's switch and a busy database: its own section
	$(BIN)/python -m bench.game  # the judge's game as an event log (issue 44): its own section
	$(BIN)/python -m bench.judge  # ten judges' phones saving into one Google sheet (issue 44): its own section
	$(BIN)/python -m bench.broken  # garbage rows typed into a tab (issue 42 §5): its own section
	$(BIN)/python -m bench.messages  # a round's seating told to 100 players by the bot (issue 45 §4): its own section
	$(BIN)/python -m bench.registration  # 200 applications in a minute into the sheet (issue 45): its own section

example: $(STAMP)
	$(BIN)/python -m sheets_sync.demo --regenerate

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

system-deps:
	bash .ci/system-deps.sh
