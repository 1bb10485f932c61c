# scree: the user's entry points. Everything builds through CMake; this file only calls it.
#   make deps    install the Debian packages (idempotent)
#   make build   configure and build (Release, -j2)
#   make test    deps + build + the whole test suite
#   make bench   deps + build + the benchmarks (figures go to docs/benchmarks.md by hand)
#   make demo    deps + the tools + the rock-avalanche pipeline (RUNOUT=slope3 for its other case)
#   make tour    deps + build + a short tour of the tools on files
BUILD_DIR ?= build
JOBS      ?= 2
CMAKE_ARGS ?=
# The shared datasets (terrain, boulders, CT); never copied into the project.
DATASETS  ?= ../shared/datasets

.PHONY: all deps configure build test bench demo tour clean
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

# The demo builds only the tools it runs (not the tests): a fresh clone reaches the run sooner.
DEMO_TOOLS := scree-dem scree-terrain scree-shape scree-pack scree-solve scree-vtk scree-runout scree-plot
demo: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS) --target $(DEMO_TOOLS)
	@$(MAKE) --no-print-directory -C pipelines/rock-avalanche SCREE_BIN=$(abspath $(BUILD_DIR))/bin \
	    DATASETS=$(abspath $(DATASETS)) $(if $(RUNOUT),RUNOUT=$(RUNOUT))

tour: build
	@$(MAKE) --no-print-directory -C pipelines/tour SCREE_BIN=$(abspath $(BUILD_DIR))/bin \
	    DATASETS=$(abspath $(DATASETS))

clean:
	@rm -rf $(BUILD_DIR)
