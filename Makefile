# searchbench — see README.md. Everything runs through the go command, which
# downloads the modules through the Go module proxy on first use.
GO       ?= go
BIN      := bin/searchbench
VARIANTS := seed routing-examples
MODES    := model structured
LATEST   := reports/latest

# bash for pipefail: a test run piped into its summary keeps go test's status.
SHELL := bash

.PHONY: aa run test test-all check guard mutants build install vet fmt-check unit gate baseline calibration pr-update cassettes compare bench fuzz clean consent-tables docs

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

# test: formatting, vet, the race-enabled test suite in short mode, the
# performance guards (make guard), then the release gate: the replay of
# the shipped datasets in both output modes gated against the committed
# baselines (a change that alters a verdict
# fails until the baselines are updated on purpose: make baseline). Short
# mode leaves the slow tests (testenv.Slow: the workflow's CI events, the
# walkthroughs, the browser, crash and canary sweeps, the demo tree
# recorded twice) to make test-all. SHORT= runs every test once, slow ones
# included: make test-all is make test SHORT=. The tests never read the
# working cassettes, baselines, prompts or datasets (internal/demo: they
# record a pinned demo tree of their own once per source), so a prompt
# change, a live recording or a new baseline cannot break them. The summary
# ends with one line per optional tool (xmllint, shellcheck, chromium, the
# word list) saying whether its tests ran.
SHORT ?= -short
test: check gate

# test-all: make test with every test, slow ones included.
test-all:
	@$(MAKE) --no-print-directory test SHORT=

# check: the code alone (formatting, vet, the tests, the performance
# guards), without the gate: what the workflow's test job runs on every
# event (the gate jobs judge the data, against the base on a pull request).
check: fmt-check vet unit guard

TESTSUM := bin/testsum
$(TESTSUM): $(wildcard internal/testsum/*.go lib/testenv/*.go)
	$(GO) build -o $@ ./internal/testsum

# A package's tests may take longer than go test's default 10 minutes on a
# loaded 2-core machine (the workflow test runs every CI event).
unit: $(TESTSUM)
	set -o pipefail; $(GO) test $(SHORT) -race -timeout 30m -json ./... | $(TESTSUM)

# guard: the performance guards (eval/synth/guard_test.go), which timings
# on a shared machine cannot fool: the allocations per case of a replay of
# the 1,000-case synthetic set against the committed figure
# (eval/synth/testdata/guard.json, +5 per case), and (slow) the live heap
# and the peak RSS of a 10,000-case replay against a 1,000-case one.
# Built without the race detector, which changes what allocates. The sets
# are generated once and cached under $$TMPDIR/searchbench-synth, as make
# bench does.
guard:
	$(GO) test $(SHORT) -count=1 -timeout 30m -run 'TestAllocsPerCase|TestHeapIsFlat' ./eval/synth

# gate: the release gate: replay the shipped datasets in both output modes,
# each against its committed baseline (model: reports/baseline.json,
# structured: reports/baseline.structured.json).
gate: build
	$(BIN) run --quiet --out $(LATEST) --gates gates.yaml --baseline reports/baseline.json
	$(BIN) run --quiet --mode structured --out $(LATEST)-structured --gates gates.yaml --baseline reports/baseline.structured.json

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# baseline: re-run the shipped datasets in both output modes and make the
# results the baselines the gate compares with. Review `git diff reports/`
# before committing.
baseline: build
	$(BIN) run --quiet --out reports/.baseline >/dev/null
	mv reports/.baseline/report.json reports/baseline.json
	$(BIN) run --quiet --mode structured --out reports/.baseline >/dev/null
	mv reports/.baseline/report.json reports/baseline.structured.json
	rm -rf reports/.baseline

# pr-update: everything a prompt pull request commits besides its prompt
# edit (docs/ci.md): re-record the stale cassettes of every variant in every
# mode (BACKEND=live for the real services; the simulator otherwise, playing
# SIM_POLICY for seed when set), regenerate the baselines and the judge's
# calibration, then list the files to commit. Its gate judges the pull
# request against its base; gates.accept.yaml names the regressions it
# accepts.
BACKEND ?= sim
SIM_POLICY ?=
pr-update: build
	@for v in $(VARIANTS); do \
	  p=""; [ $$v = seed ] && [ -n "$(SIM_POLICY)" ] && p="--sim-policy $(SIM_POLICY)"; \
	  $(BIN) record --backend $(BACKEND) $$p --variant $$v --stale || exit $$?; done
	@$(MAKE) --no-print-directory baseline
	@if [ $(BACKEND) = sim ]; then $(MAKE) --no-print-directory calibration; \
	  else echo "pr-update: if judge-correctness.md changed, measure the live judge: make calibration JUDGE=model"; fi
	@echo "pr-update: commit these with your prompt change:"
	@git status --short -- prompts cassettes reports gates.yaml gates.accept.yaml

# calibration: measure the correctness judge the cassettes were recorded
# with (the simulator's stand-in) against the human labels of
# datasets/calibration/, into the report the gate's judges section reads.
# JUDGE=model measures the live judge instead (it asks the model about
# every item: docs/scorers.md).
JUDGE ?= sim
calibration: build
	$(BIN) grade --calibrate --judge $(JUDGE) --out reports/calibration.json >/dev/null

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
	rm -rf bin $(LATEST) $(LATEST)-structured reports/runs reports/.baseline

# aa: the A/A test of the gate (scripts/aa.sh): re-record the unchanged
# prompt RUNS times with fresh seeds, in a copy of the tree, and gate each
# against the baseline; the share that fails is the gate's false-alarm rate
# on your data. RUNS, SEED, SAMPLES, FILTER, BACKEND (sim; live asks for
# CONFIRM=yes after an estimate), VARIANT, POLICY, BASELINE and GATES are
# passed through.
aa: build
	SEARCHBENCH=$(BIN) bash scripts/aa.sh
