# lolbench: see README.md. Every target works offline on a fresh machine
# with Go, git and a Docker engine.
GO      ?= go
BIN     := bin/lolbench
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
WORK    ?= work/demo

.PHONY: build test bench bench-mutate demo lint docs image real

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/lolbench

# Each of demo and test sets up what it needs on a fresh machine: Debian
# packages (test/setup.sh, as .ci/run) and the offline base image (built
# once, then cached by its content tag). Then the tests, and every fuzz
# target for a short fixed budget (test/fuzz.sh). go test runs two packages
# at a time here (one per core); the longest Docker packages are named
# first so that they start first and the short ones fill in beside them
# (README, "Performance"). The per-package timeout leaves room for a slow
# machine.
SLOW_PACKAGES := ./test/e2e ./test/exploits ./test/languages ./test/deploy ./pipeline/sandbox ./stages/mutate ./stages/augment ./stages/build ./cmd/lolbench
test: build lint
	bash test/setup.sh test
	$(BIN) env base --lang all >/dev/null
	@start=$$(date +%s); $(GO) test -count=1 -timeout 45m $(SLOW_PACKAGES) ./... || exit $$?; echo "make test: go test took $$(( $$(date +%s) - start )) s"
	bash test/fuzz.sh

# Benchmarks run side by side in one go; compare runs with benchstat.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

# The mutate benchmark (issue 32): a built task's mutate run with every test
# on every mutant, then with test selection, side by side; the kill matrix
# and the test-to-section map must be identical (test/bench/mutate.sh):
# make bench-mutate WS=work/demo CAND=unitconv-ucep-0004
bench-mutate: build
	@test -n "$(WS)" -a -n "$(CAND)" || { echo "make bench-mutate: set WS (a workspace holding the built task) and CAND (its candidate id)"; exit 2; }
	LOLBENCH=$(abspath $(BIN)) bash test/bench/mutate.sh $(WS) $(CAND) $(FLAGS)

# LANGS=all adds the Java and Rust samples (and their images) to the quick
# samples.
demo: build
	bash test/setup.sh demo
	$(BIN) env base $(if $(filter all,$(LANGS)),--lang all) >/dev/null
	WORK=$(WORK) LANGS=$(LANGS) bash data/demo/demo.sh

# lint: go vet, staticcheck (pinned; fetched through the Go module proxy
# and cached) and gofmt. make test runs it first, so CI does (.ci/run).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@out=$$(find cmd internal pipeline stages rules test -name '*.go' -not -path '*/testdata/*' -exec gofmt -l {} +); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

docs: build
	$(BIN) rules doc > docs/rules.md
	$(BIN) lang doc > docs/languages.md

# lolbench's own container image, on the offline base image (deploy/README.md).
IMAGE ?= lolbench/lolbench:$(VERSION)
image:
	VERSION=$(VERSION) GO=$(GO) bash deploy/image.sh $(IMAGE)

# A real task of data/real (docs/real-projects.md), from clones the caller
# names: make real PAIR=grpc-go CLONES="grpc-go=../grpc-go proposal=../proposal"
REAL ?= work/real-$(PAIR)
real: build
	@test -n "$(PAIR)" -a -n "$(CLONES)" || { echo "make real: set PAIR (cpython, grpc-go, opentofu, packaging) and CLONES (NAME=/path/to/clone ...)"; exit 2; }
	LOLBENCH=$(abspath $(BIN)) sh data/real/build.sh $(PAIR) $(REAL) $(CLONES) $(if $(RUNS),RUNS=$(RUNS))
