# searchbench — see README.md. Everything runs through the go command, which
# downloads the modules through the Go module proxy on first use.
GO       ?= go
BIN      := bin/searchbench
VARIANTS := seed routing-examples
MODES    := model structured
LATEST   := reports/latest

.PHONY: run test build install vet fmt-check unit gate baseline cassettes compare bench fuzz clean consent-tables docs

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

# test: formatting, vet, the race-enabled test suite, then the replay of the
# shipped datasets gated against the committed baseline: a change that alters
# a verdict fails until the baseline is updated on purpose (make baseline).
test: fmt-check vet unit gate

# A package's tests may take longer than go test's default 10 minutes on a
# loaded 2-core machine (the workflow test runs seven CI events).
unit:
	$(GO) test -race -timeout 30m ./...

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

# cassettes: re-record every shipped cassette from the simulator, for every
# prompt variant and output mode; the routing set in model mode gets
# $(SAMPLES) samples per case (record --samples). Deterministic: a second run
# changes nothing.
SAMPLES := 5
cassettes: build
	@for v in $(VARIANTS); do for m in $(MODES); do \
	  s=1; [ $$m = model ] && s=$(SAMPLES); \
	  $(BIN) record --backend sim --variant $$v --mode $$m --filter dataset:flows --samples 1 || exit 1; \
	  $(BIN) record --backend sim --variant $$v --mode $$m --filter dataset:routing --samples $$s || exit 1; done; done

# consent-tables: regenerate the consent classifier's generated files
# (orchestrator/consent/lexicon_cldr.yaml, lookalike_table.go) and the
# multilingual held-out set (datasets/consent-multilingual.yaml) from their
# sources: CLDR from the npm package cldr-misc-full (installed into a
# temporary directory, never committed), English words and glibc's locales
# from Debian (wamerican, locales).
CLDR_VERSION ?= 48.2.0
consent-tables:
	@test -r /usr/share/dict/words || { echo "consent-tables: apt-get install wamerican"; exit 1; }
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  (cd $$tmp && npm install --no-save --silent cldr-misc-full@$(CLDR_VERSION)) && \
	  $(GO) run ./orchestrator/consent/gen -cldr $$tmp/node_modules/cldr-misc-full

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

# docs: regenerate the figures and sample outputs of README.md and docs/*.md,
# each region <!-- generated: CMD --> … <!-- end --> from its command, run in
# a fresh copy of the tree (internal/docgen). A test fails when one drifts.
docs:
	$(GO) run ./internal/docgen

clean:
	rm -rf bin $(LATEST) reports/runs reports/.baseline
