# searchbench — see README.md. Everything runs through the go command, which
# downloads the modules through the Go module proxy on first use.
GO       ?= go
BIN      := bin/searchbench
VARIANTS := seed routing-examples
MODES    := model structured
LATEST   := reports/latest

# bash for pipefail: a test run piped into its summary keeps go test's status.
SHELL := bash

.PHONY: aa run test test-all unit-all mutants build install vet fmt-check unit gate baseline calibration cassettes compare bench fuzz clean consent-tables docs

# -buildvcs=auto: --version names the commit even where GOFLAGS turns
# stamping off.
build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/searchbench

# install: put searchbench on your PATH ($(go env GOPATH)/bin). It reads
# prompts/, datasets/ and cassettes/ from the folder it runs in; the seed
# prompt variant is built in.
install:
	$(GO) install ./cmd/searchbench

# run: replay every shipped dataset for the default prompt variant against its
# cassettes (no network), print the tables and write reports/latest/.
run: build
	$(BIN) run --out $(LATEST)

# test: formatting, vet, the race-enabled test suite in short mode, then the
# replay of the shipped datasets gated against the committed baseline: a
# change that alters a verdict fails until the baseline is updated on purpose
# (make baseline). Short mode leaves the slow tests (testenv.Slow: the
# workflow's seven CI events, the walkthroughs, the browser, crash and
# canary sweeps, re-recording every cassette) to make test-all, which CI
# also runs. The summary ends with one line per optional tool (xmllint,
# shellcheck, chromium, the word list) saying whether its tests ran.
test: fmt-check vet unit gate

# test-all: make test with every test, slow ones included (CI runs it).
test-all: fmt-check vet unit-all gate

TESTSUM := bin/testsum
$(TESTSUM): $(wildcard internal/testsum/*.go lib/testenv/*.go)
	$(GO) build -o $@ ./internal/testsum

unit: $(TESTSUM)
	set -o pipefail; $(GO) test -short -race -json ./... | $(TESTSUM)

# A package's tests may take longer than go test's default 10 minutes on a
# loaded 2-core machine (the workflow test runs seven CI events).
unit-all: $(TESTSUM)
	set -o pipefail; $(GO) test -race -timeout 30m -json ./... | $(TESTSUM)

gate: build
	$(BIN) run --quiet --out $(LATEST) --gates gates.yaml --baseline reports/baseline.json

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# baseline: re-run the shipped datasets and make the result the baseline the
# gate compares with. Review `git diff reports/baseline.json` before committing.
baseline: build
	$(BIN) run --quiet --out reports/.baseline
	mv reports/.baseline/report.json reports/baseline.json
	rm -rf reports/.baseline

# calibration: measure the correctness judge the cassettes were recorded
# with (the simulator's stand-in) against the human labels of
# datasets/calibration/, into the report the gate's judges section reads.
# A live judge is measured with --judge model instead (docs/scorers.md).
calibration: build
	$(BIN) grade --calibrate --judge sim --out reports/calibration.json >/dev/null

# cassettes: re-record every shipped cassette from the simulator, for every
# prompt variant and output mode; the routing set in model mode gets
# $(SAMPLES) samples per case (record --samples). Deterministic: a second run
# changes nothing.
SAMPLES := 10
cassettes: build
	@for v in $(VARIANTS); do for m in $(MODES); do \
	  s=1; [ $$m = model ] && s=$(SAMPLES); \
	  $(BIN) record --backend sim --variant $$v --mode $$m --filter dataset:flows --samples 1 || exit 1; \
	  $(BIN) record --backend sim --variant $$v --mode $$m --filter dataset:routing --samples $$s || exit 1; done; done

# consent-tables: regenerate the consent classifier's generated files
# (orchestrator/consent/lexicon_cldr.yaml, lexicon_gettext.yaml,
# lexicon_speakers.yaml, lookalike_table.go, english_words.txt.gz) from their
# sources: CLDR from
# the npm packages cldr-misc-full (yes/no words) and cldr-core (speakers per
# language), the "Yes"/"No" button translations of the gettext and Qt
# catalogs of the Debian packages in CONSENT_DEBS (apt-get download; all
# fetched into a temporary directory, never committed), English words from
# Debian wamerican. CONSENT_DEBS is the rule of orchestrator/consent/gen/
# gettext.go: the packages of widely translated desktop and installer
# toolkits (GTK 2, 3, 4; newt; dialog; libxfce4ui; zenity; wxWidgets; KDE
# Frameworks' KWidgetsAddons; Qt 5 and 6) that translate the buttons in at
# least 20 languages (gen fails on one that does not). The multilingual
# held-out set (datasets/consent-multilingual.yaml) is not rewritten: it was
# measured once (gen -heldout builds it anew); nor are the sets of issue 37
# (go run ./orchestrator/consent/heldoutgen, which refuses to overwrite one).
CLDR_VERSION ?= 48.2.0
CONSENT_DEBS ?= libgtk-3-common libgtk2.0-common libgtk-4-common libnewt0.52 dialog \
  libxfce4ui-common zenity-common wx3.2-i18n libkf5widgetsaddons-data \
  qttranslations5-l10n qt6-translations-l10n
consent-tables:
	@test -r /usr/share/dict/words || { echo "consent-tables: apt-get install wamerican"; exit 1; }
	@tmp=$$(mktemp -d) && chmod 0755 $$tmp && trap 'rm -rf $$tmp' EXIT && \
	  (cd $$tmp && npm install --no-save --silent cldr-misc-full@$(CLDR_VERSION) cldr-core@$(CLDR_VERSION)) && \
	  (cd $$tmp && apt-get download $(CONSENT_DEBS) >/dev/null) && \
	  $(GO) run ./orchestrator/consent/gen -cldr $$tmp/node_modules/cldr-misc-full \
	    -cldr-core $$tmp/node_modules/cldr-core \
	    $$(for f in $$tmp/*.deb; do printf -- '-deb %s ' "$$f"; done)

# compare: replay both shipped prompt variants (each run is stored under
# reports/runs/<variant>/model/) and compare them case by case, by name.
compare: build
	@for v in $(VARIANTS); do $(BIN) run --quiet --variant $$v --out "" || exit 1; done
	$(BIN) compare seed routing-examples

# bench: Go benchmarks of replay+score (cassettes decoded from YAML, then
# through a warm decoded-cassette cache) against the YAML and cached floors
# (their ratios from the same run), then whole `searchbench run` processes
# over 1,000 to 50,000 synthetic cases: wall time and peak RSS, and the
# performance targets checked. The sets are generated from the simulator
# once (a few minutes), cached under $TMPDIR/searchbench-synth, and nothing
# is written into the repository. PROMPTFOO=path/to/promptfoo also times
# promptfoo on the same machine, BASELINE=dir compares with the replay of
# an earlier source tree (see docs/performance.md).
PROMPTFOO ?=
BASELINE ?=
bench:
	$(GO) run ./cmd/scalebench $(if $(PROMPTFOO),-promptfoo $(PROMPTFOO)) $(if $(BASELINE),-baseline $(BASELINE))

# fuzz: a short run of every fuzz target (FUZZTIME each), then a table of
# the executions each managed. Minimising a new input is capped at
# FUZZMINTIME: go's default (60s) lets one large input eat a short run.
FUZZTIME ?= 10s
FUZZMINTIME ?= 2s
fuzz:
	@log=$$(mktemp); trap 'rm -f $$log' EXIT; summary=""; \
	for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) $$pkg >$$log 2>&1; rc=$$?; \
	    tail -3 $$log; [ $$rc -eq 0 ] || { cat $$log; exit 1; }; \
	    execs=$$(grep -o 'execs: [0-9]*' $$log | tail -1 | cut -d' ' -f2); \
	    summary="$$summary$$(printf '%-60s %-28s %10s' $${pkg#github.com/searchbench/searchbench/} $$f $${execs:-0})\n"; \
	  done; \
	done; \
	printf '\n%-60s %-28s %10s\n' package target execs; printf "$$summary"

# mutants: mutation testing with gremlins (fetched through the module proxy
# at the pinned version) of the packages whose verdicts matter most, then
# one line per package and every mutant that lived, named by function and
# mutation (internal/mutsum). Each package's mutants_test.go lists the
# survivors judged equivalent. About 5-15 minutes a package on 2 cores.
GREMLINS := github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
MUTANT_PKGS ?= eval/gate eval/compare eval/score orchestrator/answer orchestrator/consent
mutants:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && args="" && \
	for p in $(MUTANT_PKGS); do \
	  echo "== gremlins unleash ./$$p"; \
	  $(GO) run $(GREMLINS) unleash --workers 2 --timeout-coefficient 10 -o $$tmp/$${p//\//_}.json ./$$p > $$tmp/log 2>&1 || { cat $$tmp/log; exit 1; }; \
	  args="$$args $$p=$$tmp/$${p//\//_}.json"; \
	done && $(GO) run ./internal/mutsum $$args

# docs: regenerate the figures and sample outputs of README.md and docs/*.md,
# each region <!-- generated: CMD --> … <!-- end --> from its command, run in
# a fresh copy of the tree (internal/docgen). A test fails when one drifts.
docs:
	$(GO) run ./internal/docgen

clean:
	rm -rf bin $(LATEST) reports/runs reports/.baseline

# aa: the A/A test of the gate (scripts/aa.sh): re-record the unchanged
# prompt RUNS times with fresh seeds, in a copy of the tree, and gate each
# against the baseline; the share that fails is the gate's false-alarm rate
# on your data. RUNS, SEED, SAMPLES, FILTER, BACKEND (sim; live asks for
# CONFIRM=yes after an estimate), VARIANT, POLICY, BASELINE and GATES are
# passed through.
aa: build
	SEARCHBENCH=$(BIN) bash scripts/aa.sh
