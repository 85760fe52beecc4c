# pathpool: the two quick-start commands are `make demo` and `make test`.
# Every target installs what it needs first (`make deps`), so a fresh clone works.

CARGO ?= cargo
BIN := target/release/pathpool
OUT ?= out

.PHONY: all deps build demo test python-test wheel fuzz validate validate-ferlin2016 reproduce bench crosscheck-ns3 clean validate-pcap bench-pcap bench-pcap-flood pcap-vantage-testbed

all: build

# The Rust toolchain (stable, via rustup when cargo is missing). No system libraries are
# needed: plots use an embedded font. The testbed (docs/testbed.md) drives `ip` and `tc`:
# iproute2 is installed when it is missing and we are root (without root the testbed skips).
deps: deps-kernel
	@command -v $(CARGO) >/dev/null 2>&1 || { \
	  echo "installing the Rust toolchain with rustup"; \
	  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal; }
	@$(CARGO) --version
	@# Every package of the lock file, other platforms' included: the crate-graph test reads
	@# `cargo metadata --offline`, which needs them all, where a build fetches only its own.
	@$(CARGO) fetch --locked --quiet
	@if [ "$$(id -u)" = 0 ] && ! { command -v ip && command -v tc; } >/dev/null 2>&1; then \
	  echo "installing iproute2 for the testbed"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2; fi

# ---- [kernel] BPF congestion controls (docs/kernel.md) ----
# The loader needs clang, bpftool and libbpf/libelf/zlib headers at build time: installed by
# `deps` when root; the `kernel` feature is turned on only when they are all there (evaluated
# when used, after deps), otherwise pathpool builds without it and `pathpool kernel` says
# what is missing. `make build-kernel` insists on it.
KERNEL_TOOLS_OK = $(shell command -v clang >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1 && test -f /usr/include/bpf/bpf_helpers.h && pkg-config --exists libelf zlib 2>/dev/null && echo yes)
KERNEL_FEATURES = $(if $(KERNEL_TOOLS_OK),--features pathpool/kernel,)
.PHONY: deps-kernel build-kernel kernel-measure
deps-kernel:
	@if [ "$$(id -u)" = 0 ] && [ -z "$(KERNEL_TOOLS_OK)" ]; then \
	  echo "installing the BPF toolchain for pathpool's kernel controllers"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config; fi
	@# The recipe of docs/kernel.md ("Your own application") runs an unmodified program over
	@# MPTCP: iperf3 under mptcpize (package mptcpd); its root test needs both.
	@if [ "$$(id -u)" = 0 ] && ! { command -v iperf3 && command -v mptcpize; } >/dev/null 2>&1; then \
	  echo "installing iperf3 and mptcpize for the kernel recipe"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 mptcpd; fi
	@command -v clang >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1 && test -f /usr/include/bpf/bpf_helpers.h && pkg-config --exists libelf zlib 2>/dev/null \
	  || echo "note: kernel controllers not built (needs clang bpftool libbpf-dev libelf-dev zlib1g-dev pkg-config; \`make deps\` as root installs them)"
build-kernel: deps
	$(CARGO) build --release --locked -p pathpool --features pathpool/kernel
# ---- end [kernel] ----

build: deps
	$(CARGO) build --release --locked -p pathpool $(KERNEL_FEATURES)

# The main job: S0's (ferlin2016) experiments in the quick preset, beside the paper's numbers.
# Running it again resumes in the same folder (finished simulations are reused).
demo: build
	@$(BIN) reproduce ferlin2016 --quick --out $(OUT)/demo

# The fast-test profile (Cargo.toml) is the release profile without link-time optimisation.
# Tests that need root (or a tool) and find none pass without running; each records itself in
# $(SKIPPED) (crates/testbed/src/skip.rs), and the count and names are printed at the end.
SKIPPED := $(or $(CARGO_TARGET_DIR),target)/skipped-tests.txt
test: deps
	@rm -f $(SKIPPED)
	$(CARGO) test --profile fast-test --locked --workspace $(KERNEL_FEATURES)
	$(MAKE) python-test
	@if [ -s $(SKIPPED) ]; then echo "skipped: $$(wc -l < $(SKIPPED)) tests did not run:"; sed 's/\t/: /; s/^/  /' $(SKIPPED); else echo "skipped: none (every test ran)"; fi

# ---- golden results (crates/cli/tests/golden.rs) ----
# `make test` checks that every paper scenario file, every example and the RED validation
# scenario (seed 1, 30 s; the S0 files also under each multipath scheme) give the SHA-256
# digests of crates/cli/tests/golden/results.sha256. A change meant to change results
# rewrites them with `make golden` and commits the file (its diff names the runs that moved).
.PHONY: golden
golden: deps
	PATHPOOL_GOLDEN=write $(CARGO) test --profile fast-test --locked -p pathpool --test golden
# ---- end golden ----

# The Python package (docs/python.md): installs it into a throwaway virtual environment under
# $(OUT)/pyvenv (made again only when pyproject.toml changes) and runs python/tests.
python-test: deps
	CARGO="$(CARGO)" OUT="$(OUT)" bash scripts/python-test.sh

# A wheel of the Python package (docs/python.md, "Install"), release profile, into
# target/wheels: CPython >= 3.10 (stable ABI), manylinux_2_34 checked by maturin; installs with
# pip and no Rust toolchain. Prints the wheel's path.
wheel: deps
	@w=$$(OUT="$(OUT)" bash scripts/python-wheel.sh release target/wheels) && echo "wheel: $$w"

# Long fuzz runs of every input parser's property tests (make test runs a few cases of each):
# `make fuzz FUZZ_CASES=N` tries N inputs per property; a failure prints the smallest input
# that fails, to be kept as a regression case (docs/robustness.md, "Fuzzing").
FUZZ_CASES ?= 5000
fuzz: deps
	PATHPOOL_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --profile fast-test --locked -p pathpool --test fuzz_detect
	PATHPOOL_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --profile fast-test --locked -p pathpool-scenario --test no_panic --test limits
	PATHPOOL_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --profile fast-test --locked -p pathpool-pcap --test inputs
	PATHPOOL_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --profile fast-test --locked -p pathpool-reproduce --test out_folder_props
	@echo "fuzz: $(FUZZ_CASES) inputs per property tried, no crash (detect trace CSV: bytes and structured; scenario --set; numeric extremes; pcap/pcapng captures; sequences of runs into one output folder)"

# The long validations (docs/validation.md records their results): every #[ignore]d test
# of the workspace (simulator validation, detection accuracy tables, ...), the scenario runs, and
# the simulator against real Linux (docs/fidelity.md; needs root, about an hour).
validate: build
	$(CARGO) test --release --locked --workspace -- --ignored --nocapture --test-threads 1
	for s in 1 2 3 4 5; do $(BIN) run scenarios/validation/fairness-10-reno.toml --out $(OUT)/validation/fairness-10-reno-seed$$s --seed $$s; done
	@if [ "$$(id -u)" = 0 ]; then $(BIN) fidelity --out $(OUT)/fidelity --doc docs/fidelity.md; \
	  else echo "fidelity suite skipped: the testbed needs root (docs/fidelity.md)"; fi

# S0's NSB/SB experiments over seeds 1-10 (docs/validation.md, "MPTCP and MPTCP-SBD"); exits
# non-zero while a target of the multipath acceptance is not met.
validate-ferlin2016: build
	python3 -m scripts.ferlin2016_sweep --bin $(BIN) --out $(OUT)/ferlin2016

# The lying-receiver evaluation (docs/security.md, "Beyond S0's scenarios"): every liar against
# the honest receiver over a design of shared setups under both host models, and the check's
# cost on disjoint ones, each cell decided from paired runs by the sign test (seeds 1-5, then up
# to 20 and to 100 where undecided: "Deciding the bound"); writes its table; exits non-zero
# unless every cell holds (a cell that fails or is undecided). Runs are kept in $(OUT)/liar by
# setup and seed, not by binary: remove it after a change to the simulator.
.PHONY: liar-table
liar-table: build
	python3 -m scripts.liar_table --bin $(BIN) --out $(OUT)/liar --looks 20,100

# The same up to 30 Mb/s (the 10 Mb/s corners, the centre, the setup of "Why the check missed
# sharing" and S0's NSB-2..5), where runs are short enough for a third look at 100 seeds; writes
# docs/security.md's partial table under "What still fails".
.PHONY: liar-table-30
liar-table-30: build
	python3 -m scripts.liar_table --bin $(BIN) --out $(OUT)/liar --max-rate 30 --looks 20,100

# Beside the check's cost on the disjoint rows it leaves undecided, what a placebo change
# (the MPTCP connection 100 us later, the check off) moves the same runs by (docs/security.md,
# "A placebo beside the check"); writes its table there. Shares $(OUT)/liar with liar-table.
PLACEBO_ROWS = nsb-3-linux-6.18,disjoint-10M-100ms-0.25bdp-5sf-3tcp-droptail-linux-6.18,disjoint-10M-100ms-2bdp-2sf-1tcp-droptail-linux-6.18,disjoint-10M-100ms-2bdp-5sf-1tcp-red-linux-6.18,disjoint-100M-100ms-0.25bdp-2sf-1tcp-red-ideal,disjoint-100M-100ms-2bdp-5sf-3tcp-red-ideal,disjoint-100M-100ms-0.25bdp-5sf-1tcp-droptail-linux-6.18,disjoint-100M-100ms-2bdp-5sf-3tcp-red-linux-6.18
.PHONY: liar-placebo
liar-placebo: build
	python3 -m scripts.liar_placebo --bin $(BIN) --out $(OUT)/liar --seeds 100 --rows $(PLACEBO_ROWS)

# The bound's own measure (medians of seeds 1-5) on the shared setups for every liar beside a
# placebo that lies about nothing (the honest receiver, the MPTCP connection 100 us later), and
# where a liar fails that measure, its paired per-seed moves over seeds 1-100 beside the
# placebo's (docs/security.md, "A placebo among the liars"); writes its table there. Shares
# $(OUT)/liar.
.PHONY: liar-placebo-shared
liar-placebo-shared: build
	python3 -m scripts.liar_placebo_shared --bin $(BIN) --out $(OUT)/liar --seeds 5 --paired-seeds 100

# Whether the sender coupled wherever the receiver's own detector did, in every liar's runs over
# the liar table's shared setups, and what it coupled beyond on the disjoint ones (docs/security.md,
# "The coupling against the honest detector"); writes its table there. Shares $(OUT)/liar.
.PHONY: liar-coupling
liar-coupling: build
	python3 -m scripts.liar_coupling --bin $(BIN) --out $(OUT)/liar --seeds 5

# Every paper's experiments in full (docs/reproduce.md gives the wall time per paper);
# running it again resumes.
reproduce: build
	$(BIN) reproduce all --out $(OUT)/reproduce

# Simulator speed (BENCHMARKS.md): the benchmark scenarios, one after another.
bench: build
	for b in b1-n10 b1-n100 b2-n10 b2-n100 s-n1000; do /usr/bin/time -v $(BIN) run scenarios/bench/$$b.toml --out $(OUT)/bench/$$b 2>&1 | grep -E 'Elapsed|Maximum resident'; done
	$(BIN) bench sbd

# Memory over a simulated hour of MP and of S with 1000 flows (BENCHMARKS.md, "Memory over
# long runs"): writes its table into BENCHMARKS.md; fails if a heap leaves its 5 % band.
# What the Linux-host model (the default) costs per packet against idealised hosts
# (BENCHMARKS.md, "Linux hosts against idealised hosts"; wants an idle machine).
.PHONY: bench-hosts
bench-hosts: build deps-valgrind
	python3 -m scripts.bench_hosts --bin $(BIN) --runs 5 --instructions

# The same in instructions (valgrind's cachegrind: exact, any load), this build against an older
# one, OLD=<its pathpool> (docs/simulator.md, "The Linux-host model").
# valgrind for the instruction counts, installed when root and missing.
.PHONY: deps-valgrind bench-instructions
deps-valgrind:
	@if [ "$$(id -u)" = 0 ] && ! command -v valgrind >/dev/null 2>&1; then \
	  echo "installing valgrind for the instruction counts"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; fi
bench-instructions: build deps-valgrind
	python3 -m scripts.bench_instructions --bin $(BIN) --old $(OLD)

# Time per packet of two builds run in turn (docs/simulator.md, "Why wall time says more than
# instructions"): make bench-builds OLD=<another build of pathpool>
.PHONY: bench-builds
bench-builds: build
	python3 -m scripts.bench_builds --bin $(BIN) --old $(OLD)

.PHONY: bench-long
bench-long: deps
	$(CARGO) build --release --locked -p pathpool-sim --example bench
	python3 -m scripts.long_runs --bench target/release/examples/bench --seconds 3600

# Shared bottleneck detection on captures of real Linux MPTCP (docs/pcap.md): S0's NSB-2 and
# SB-2 on the testbed (root; about 7 minutes), read back by `detect --pcap`; fails below 90 %.
validate-pcap: build
	sh scripts/pcap_testbed.sh $(BIN) $(OUT)/pcap-testbed

# The same question asked of real Linux captures at the sender, a middle host and the receiver
# (docs/pcap.md, "Real captures at both ends and in the middle"): TCP and MPTCP transfers over
# SB-2's shared and NSB-2's disjoint bottlenecks on the testbed (root), PCAP_RUNS runs each
# (about 11 minutes per run); writes the table of right decisions per vantage point, topology
# and detector into docs/pcap.md; fails when a pathpool run is below 90 % with an answer.
PCAP_RUNS ?= 5
pcap-vantage-testbed: build
	python3 -m scripts.pcap_testbed_vantage --bin $(BIN) --out $(OUT)/pcap-testbed-vantage --runs $(PCAP_RUNS)

# Capture reading speed (BENCHMARKS.md, "Packet captures").
bench-pcap: build
	sh scripts/pcap_bench.sh $(BIN) $(OUT)/pcap-bench 5

# Peak memory of `detect --pcap` with a SYN-flood-like capture of 10^7 connections beside B1's
# (BENCHMARKS.md, "Packet captures of many connections"; the flood is generated, 560 MB).
bench-pcap-flood: build
	sh scripts/pcap_flood_bench.sh $(BIN) $(OUT)/pcap-flood 10000000

# Simulator speed side by side with htsim (BENCHMARKS.md): builds htsim from a checkout of its
# public sources given as HTSIM=<folder> (nothing of it is kept here), then runs both on B1,
# S, MP (median of 5 runs each) and the scale case (fence, 10 000 flows; 3 runs each) in
# turn, and writes both tables into BENCHMARKS.md. About 10 minutes plus 20-40 for the scale
# case on an idle machine; BENCH_ONLY=b1-10,fence (for example) runs those cases alone.
.PHONY: bench-htsim bench-scale bench-sweep
bench-htsim: deps
	@test -n "$(HTSIM)" || { echo "usage: make bench-htsim HTSIM=<checkout of htsim (csg-htsim)>"; exit 2; }
	$(CARGO) build --release --locked -p pathpool-sim --example bench
	scripts/htsim/build.sh $(HTSIM) $(OUT)/htsim
	python3 -m scripts.bench_vs_htsim --pathpool target/release/examples/bench --htsim $(OUT)/htsim/bench_htsim $(if $(BENCH_ONLY),--only $(BENCH_ONLY)) $(if $(BENCH_CPU),--cpu $(BENCH_CPU)) --doc BENCHMARKS.md

# Instructions per packet of pathpool and htsim on the same cases, one cachegrind run each
# (BENCHMARKS.md, "Instructions against htsim"): exact and the same on a busy machine. Needs
# the htsim driver that bench-htsim builds. About 10 minutes.
.PHONY: bench-instructions-htsim
bench-instructions-htsim: deps deps-valgrind
	$(CARGO) build --release --locked -p pathpool-sim --example bench
	@test -x $(OUT)/htsim/bench_htsim || { echo "build htsim's driver first: make bench-htsim HTSIM=<checkout of htsim (csg-htsim)>"; exit 2; }
	python3 -m scripts.bench_instructions_htsim --pathpool target/release/examples/bench --htsim $(OUT)/htsim/bench_htsim $(if $(BENCH_ONLY),--only $(BENCH_ONLY))

# Growth of time per packet with the number of flows, in back-to-back pairs of runs with few
# and many flows (BENCHMARKS.md, "Growth with the number of flows"), for pathpool and htsim;
# writes its table. Needs the htsim driver that bench-htsim builds. About 10 minutes, idle.
.PHONY: bench-growth
bench-growth: deps
	$(CARGO) build --release --locked -p pathpool-sim --example bench
	@test -x $(OUT)/htsim/bench_htsim || { echo "build htsim's driver first: make bench-htsim HTSIM=<checkout of htsim (csg-htsim)>"; exit 2; }
	python3 -m scripts.bench_growth --pathpool target/release/examples/bench --htsim $(OUT)/htsim/bench_htsim --doc BENCHMARKS.md

# The scale case alone (BENCHMARKS.md, "The scale case"): its peak memory and speed, one run,
# GNU time's figures (memory is valid on a busy machine, speed only on an idle one).
bench-scale: deps
	$(CARGO) build --release --locked -p pathpool-sim --example bench
	/usr/bin/time -v target/release/examples/bench fence 10000 60 2>&1 | grep -E 'scenario=|User time|Elapsed|Maximum resident'

# A sweep's scaling over Dask worker processes (BENCHMARKS.md, "Sweeps"): 200 quick runs
# through pathpool.sweep on 1 and 2 workers, 3 sweeps each, on pathpool.local_cluster, then
# with one run per task, then on a plain LocalCluster; writes the three tables into
# BENCHMARKS.md. PYTHON must have pathpool and dask.distributed installed (docs/python.md).
bench-sweep:
	$(PYTHON) -m scripts.bench_sweep --doc BENCHMARKS.md
	$(PYTHON) -m scripts.bench_sweep --batch 1 --doc BENCHMARKS.md
	$(PYTHON) -m scripts.bench_sweep --dask-defaults --doc BENCHMARKS.md

# Cross-check against ns-3 (docs/validation.md, "Cross-check against ns-3"): installs the ns-3
# Python wheel (and pathpool's package, built from source) into a throwaway virtual environment under $(OUT)/ and prints pathpool and
# ns-3 side by side for B1 (N = 10; 5 s and 30 s warm-up) and the RTT 1:2 case under RED.
# Takes about 10 minutes, almost all of it in ns-3.
NS3_VENV := $(OUT)/ns3venv
crosscheck-ns3: build
	@test -x $(NS3_VENV)/bin/python || { python3 -m venv $(NS3_VENV) && $(NS3_VENV)/bin/pip install ns3==3.44.post0; }
	@# The scenario's units are read by pathpool's own parsers: its Python package, from this checkout.
	$(NS3_VENV)/bin/pip install -q .
	mkdir -p $(OUT)/crosscheck-ns3
	$(NS3_VENV)/bin/python -m scripts.ns3_crosscheck scenarios/bench/b1-n10.toml --duration 120s --pathpool $(BIN) --json $(OUT)/crosscheck-ns3/b1-n10.json
	$(NS3_VENV)/bin/python -m scripts.ns3_crosscheck scenarios/bench/b1-n10.toml --duration 120s --warmup 30s --pathpool $(BIN) --json $(OUT)/crosscheck-ns3/b1-n10-warmup30.json
	$(NS3_VENV)/bin/python -m scripts.ns3_crosscheck scenarios/validation/rtt-1to2-reno.toml --pathpool $(BIN) --json $(OUT)/crosscheck-ns3/rtt-1to2-reno.json

clean:
	$(CARGO) clean
	rm -rf $(OUT)

# ---- pairwise sharing (docs/sbd.md, "Beyond partitions: pairwise sharing") ----
# Coupling per bottleneck group on overlapping paths (zongor2019 and scenarios/overlap) beside
# MPTCP-SBD, OLIA, LIA and uncoupled, seeds 1-5; writes docs/sbd.md's table (about 2 min).
.PHONY: sbd-pairwise
sbd-pairwise: build
	python3 -m scripts.sbd_pairwise --bin $(BIN) --out $(OUT)/sbd-pairwise --seeds 5
# ---- end pairwise sharing ----

# ---- tables and investigations written by scripts/ (scripts/README.md lists every script) ----
# Scripts are one Python package run from the top (`python3 -m scripts.NAME`). Each target
# below is the reproducing command its doc names; those marked root drive the testbed or the
# kernel's controllers (wrap real runs in the machine's real-run lock where several share it).
# Scripts that read captures, units or groupings do it with the pathpool Python package's Rust
# code: PYTHON must have it installed (docs/python.md, "Install"; PYTHON=venv/bin/python).
PYTHON ?= python3
.PHONY: sbd-eval-table sbd-sweep-table security-table host-model-table pcap-vantage-table connection-step-table \
  readme-results kernel-table kernel-soak-table realfair-table quic-table quic-sbd-replay robustness-memory-table \
  investigations-pcap-drift investigations-pcap-skew investigations-pcap-loopback investigations-held-ack
# docs/sbd.md, "Harder evaluation" (scenarios/sbd-eval, seeds 1-5).
sbd-eval-table: build
	$(PYTHON) -m scripts.sbd_eval --bin $(BIN) --out $(OUT)/sbd-eval --seeds 5
# docs/sbd.md, the detector sweep and the shifting bottleneck.
sbd-sweep-table: build
	$(PYTHON) -m scripts.sbd_sweep --bin $(BIN) --out $(OUT)/sbd-sweep --seeds 4 --shift-seeds 8
# docs/security.md, the lying receivers on S0's scenarios.
security-table: build
	$(PYTHON) -m scripts.security_table --bin $(BIN) --out $(OUT)/security --seeds 10
# docs/scenarios.md, the host models' table.
host-model-table: build
	$(PYTHON) -m scripts.host_model_table --pathpool $(BIN) --doc docs/scenarios.md
# docs/pcap.md, detection at each vantage point of simulated captures.
pcap-vantage-table: build
	$(PYTHON) -m scripts.pcap_vantage --bin $(BIN) --out $(OUT)/pcap-vantage --jobs 1
# docs/fidelity-notes.md, a connection's step response.
connection-step-table: build
	$(PYTHON) -m scripts.connection_step --bin $(BIN) --out $(OUT)/connection-step --seeds 10
# README.md's results table: S0's experiments in full, then the table from their output.
readme-results: build
	$(BIN) reproduce ferlin2016 --out $(OUT)/ferlin2016
	$(PYTHON) -m scripts.readme_results $(OUT)/ferlin2016
# docs/kernel.md: the kernel's controllers against the simulator (root; about 40 minutes).
kernel-table: build-kernel
	$(PYTHON) -m scripts.kernel_measure --bin $(BIN) --repeat 3
# docs/kernel.md, "Soak": ten minutes through every BPF controller (root).
kernel-soak-table: build-kernel
	$(PYTHON) -m scripts.kernel_soak --bin $(BIN)
# docs/kernel.md: real MPTCP with the receiver fix and the SBD daemon (root; about 100 minutes).
realfair-table: build-kernel
	$(PYTHON) -m scripts.realfair --bin $(BIN)
# docs/quic.md: multipath QUIC's table, and the detector candidates replayed on its runs.
quic-table: build
	$(PYTHON) -m scripts.quic_table --bin $(BIN) --out $(OUT)/quic
quic-sbd-replay: build
	$(PYTHON) -m scripts.quic_sbd_replay --bin $(BIN) --runs $(OUT)/quic-capture $(OUT)/quic --doc docs/quic.md
# docs/robustness.md: peak memory on the extreme inputs (prints the table).
robustness-memory-table: build
	sh scripts/robustness_memory.sh $(BIN) 20
# docs/pcap.md, "Clock drift" and "Clock skew" (the skew reads validate-pcap's SB-2 and NSB-2 runs).
investigations-pcap-drift: deps
	$(CARGO) build --profile fast-test --locked -p pathpool -p pathpool-pcap --example inject_skew
	sh scripts/pcap_drift.sh target/fast-test/pathpool target/fast-test/examples/inject_skew
investigations-pcap-skew: build
	sh scripts/pcap_skew.sh $(OUT)/pcap-testbed/sb-2 $(OUT)/pcap-testbed/nsb-2 $(BIN)
# docs/pcap.md, a loopback capture (root) and docs/kernel.md, the held ACK (root).
investigations-pcap-loopback: build
	sh scripts/pcap_loopback.sh $(BIN)
investigations-held-ack: build
	sh scripts/mptcp_held_ack_repro.sh 5 30
# ---- end scripts ----
