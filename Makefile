# Thin list of one-line targets; CI runs `make check` (see .ci/run).
GO ?= go

.PHONY: build cross test hostile check fmtcheck vet examples bench fuzz update tidycheck

# A release tag names the version; the commit is always recorded (the
# environment may turn Go's own VCS stamping off).
VERSION ?= $(shell git describe --tags --exact-match 2>/dev/null || echo devel)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)

build:      ; CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/mcpdecl ./cmd/mcpdecl
# The release systems of .goreleaser.yaml other than Linux compile (nothing
# is written); the code has no per-architecture parts.
cross:      ; for t in darwin/arm64 windows/amd64; do \
                CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/mcpdecl || exit 1; done
test:       ; $(GO) test -race ./...
hostile:    ; $(GO) test -run Hostile ./...
check: fmtcheck vet cross test examples tidycheck
fmtcheck:   ; @test -z "$$(gofmt -l .)" || (gofmt -l . && echo 'run gofmt -w .' && exit 1)
vet:        ; $(GO) vet ./...
examples:   ; $(GO) run ./cmd/mcpdecl validate --strict examples/library.hcl examples/calendar.hcl examples/orders.hcl examples/commands.hcl examples/orders_app.hcl examples/team.hcl examples/onbehalf.hcl examples/limits.hcl examples/remote.hcl && $(GO) run ./cmd/mcpdecl fmt --check examples && $(GO) run ./cmd/mcpdecl test examples
tidycheck:  ; $(GO) mod tidy && git diff --exit-code -- go.mod go.sum
bench:      ; $(GO) test -run='^$$' -bench=. -benchmem ./... && ./scripts/bench-validate.sh
fuzz:       ; for f in table:FuzzLoad internal/fastschema:FuzzFastSchemaAgrees table:FuzzInjectCSP mcp:FuzzDecodeMessage mcp:FuzzDecodeMatchesReference internal/jsondec:FuzzDecodeJSON internal/jsonenc:FuzzMatchesEncodingJSON eval:FuzzValueMatchesHCL eval:FuzzFloatText; do \
                $(GO) test -run='^$$' -fuzz="^$${f#*:}$$" -fuzztime=$${FUZZTIME:-30s} ./$${f%%:*} || exit 1; done
update:     ; $(GO) test ./... -update
conformance: ; ./scripts/conformance.sh
