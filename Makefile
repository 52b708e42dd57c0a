# ptxmm: `make demo` and `make test` do all the set-up (Debian packages, configure, build) idempotently.
# Packages are installed with apt-get when running as root; otherwise the exact command to run is printed.

PACKAGES := cmake make g++ ccache libz3-dev libboost-graph-dev libcli11-dev catch2 nlohmann-json3-dev graphviz python3
BUILD    := build
ASAN     := build-asan
JOBS     := $(shell nproc)
PTXMM    := $(BUILD)/app/ptxmm
# cuobjdump (with nvdisasm) for `ptxmm validate`'s SASS check, from NVIDIA's wheels when CUDA lacks it.
CUDA_TOOLS := .tools/cuobjdump
CUDA_WHEELS := nvidia-cuda-cuobjdump==13.2.* nvidia-cuda-nvdisasm==13.2.*

# Compiles go through ccache: a rebuild, or a second clone on the same machine, reuses the objects of an earlier
# build. Paths are taken relative to the checkout so that two clones share the cache; a cached object's debug
# information may then name the other clone's directory (only debuggers see it). CCACHE_DISABLE=1 turns it off.
export CCACHE_BASEDIR  := $(CURDIR)
export CCACHE_NOHASHDIR := 1
LAUNCHER := $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

.PHONY: all setup build asan demo test clean

all: build

setup:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Missing Debian packages:$$missing"; \
	    echo "Run: sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@if ! command -v cuobjdump >/dev/null 2>&1 && [ ! -x "$${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" ] && \
	    [ ! -x $(CUDA_TOOLS)/nvidia/cu13/bin/cuobjdump ]; then \
	  if python3 -m pip --version >/dev/null 2>&1; then \
	    echo "Installing cuobjdump and nvdisasm into $(CUDA_TOOLS) (ptxmm validate checks SASS with them)"; \
	    python3 -m pip install --quiet --disable-pip-version-check --target $(CUDA_TOOLS) $(CUDA_WHEELS) || \
	      echo "warning: could not install cuobjdump; ptxmm validate will refuse to run without it"; \
	  else \
	    echo "note: cuobjdump not found and pip unavailable; ptxmm validate needs CUDA's cuobjdump"; \
	  fi; \
	fi

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(LAUNCHER) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

# The sanitizer job: a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer running the unit tests
# (one binary per layer, CTest label `unit`), one after the other: the random differential tests give each test
# a time limit, which sanitized binaries competing for the cores would turn into inconclusive runs.
asan: setup
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DPTXMM_SANITIZE=ON $(LAUNCHER) >/dev/null
	cmake --build $(ASAN) -j$(JOBS) --target ptxmm_unit_tests
	ctest --test-dir $(ASAN) -L unit --output-on-failure

# The main job on the bundled cases: the permitted outcomes of every test (exit 1 from `run` only means some
# condition does not hold, which the cases include on purpose), then the check against their expectations.
demo: build
	@$(PTXMM) run cases/litmus/ptx/*.litmus; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	$(PTXMM) suite --expected cases/expected/ptx.expect --root cases

test: build asan
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN)
