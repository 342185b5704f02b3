# searchbench — see README.md. Everything runs through the go command, which
# downloads modules through the Go module proxy on first use.
GO      ?= go
BIN     := bin/searchbench
PKGS    := ./...

.PHONY: run test build vet fmt-check bench cassettes baseline fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/searchbench

# run: replay every shipped dataset for the default prompt variant, print the
# tables and write reports/latest/.
run: build
	$(BIN) check phase2 orchestrator/answer/testdata/examples/phase2-ok.md
	$(BIN) check phase1 orchestrator/answer/testdata/examples/phase1-ok.md

# test: formatting, vet, the race-enabled test suite.
test: fmt-check vet
	$(GO) test -race $(PKGS)

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

clean:
	rm -rf bin
