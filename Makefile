# pathpool: the two quick-start commands are `make demo` and `make test`.
# Every target installs what it needs first (`make deps`), so a fresh clone works.

CARGO ?= cargo
BIN := target/release/pathpool
OUT ?= out

.PHONY: all deps build demo test validate bench clean

all: build

# The Rust toolchain (stable, via rustup when cargo is missing). No system libraries are
# needed: plots use an embedded font.
deps:
	@command -v $(CARGO) >/dev/null 2>&1 || { \
	  echo "installing the Rust toolchain with rustup"; \
	  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal; }
	@$(CARGO) --version

build: deps
	$(CARGO) build --release --locked -p pathpool

# S1 Fig 7: LIA over two paths with equal loss and RTTs 5:1. pathpool prints the headline
# figures (alpha_mean, total_over_tcp_best) and where the summary and the plot are.
demo: build
	@$(BIN) cwndsim --algo lia --loss 0.001,0.001 --rtt 5,1 --rounds 200000 --seed 1 --out $(OUT)/demo-cwndsim

test: deps
	$(CARGO) test --release --locked --workspace

clean:
	$(CARGO) clean
	rm -rf $(OUT)
