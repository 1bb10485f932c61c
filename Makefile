# scree: the user's entry points. Everything builds through CMake; this file only calls it.
#   make deps    install the Debian packages (idempotent)
#   make build   configure and build (Release, -j2)
#   make test    deps + build + the whole test suite
#   make bench   deps + build + the benchmarks (figures go to docs/benchmarks.md by hand)
#   make demo    deps + build + the demo pipeline
BUILD_DIR ?= build
JOBS      ?= 2
CMAKE_ARGS ?=
# The shared datasets (terrain, boulders, CT); never copied into the project.
DATASETS  ?= ../shared/datasets

.PHONY: all deps configure build test bench demo clean
all: build

deps:
	@bash scripts/deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_ARGS)

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

bench: build
	@bash bench/run.sh $(BUILD_DIR)

demo: build
	@$(MAKE) --no-print-directory -C pipelines/demo SCREE_BIN=$(abspath $(BUILD_DIR))/bin \
	    DATASETS=$(abspath $(DATASETS))

clean:
	@rm -rf $(BUILD_DIR)
