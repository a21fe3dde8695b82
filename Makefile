# ReceptionKit: the commands in the README. Every target installs what it needs first (safe to run again).
SHELL := /bin/bash
.DEFAULT_GOAL := test

APT_PACKAGES := libsqlite3-dev zlib1g-dev libmicrohttpd-dev libjpeg-turbo-progs golang-1.19-src pkg-config
PIP_PACKAGES := Pillow PyJWT
SWIFT_TEST_FLAGS ?=

.PHONY: install test test-only check-imports release-check bench fuzz demo clean

# Installs missing Debian packages by name without prompting, and the Python test tools. Does nothing when all
# are present, so it is safe to run again.
install:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo -n"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@python3 -c "import PIL, jwt" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)

# The import rule of Docs/ARCHITECTURE.md, and the checker's own self-test.
check-imports:
	@python3 scripts/check-imports --self-test
	@python3 scripts/check-imports

# Every target in release mode with warnings as errors.
release-check: install
	swift build -c release -Xswiftc -warnings-as-errors

test: install check-imports
	swift build --build-tests -Xswiftc -warnings-as-errors
	swift test --skip-build $(SWIFT_TEST_FLAGS)
	$(MAKE) --no-print-directory release-check

# The test suite without the install step (for quick local runs).
test-only:
	swift test $(SWIFT_TEST_FLAGS)

bench: install
	@if ls Benchmarks/*/ >/dev/null 2>&1; then \
	  for b in Benchmarks/*/; do n=$$(basename $$b); swift run -c release $$n || exit 1; done; \
	else echo "no benchmarks yet"; fi

# libFuzzer targets for the PNG and JPEG decoders (Fuzz/), built with -sanitize=fuzzer,address and run for a
# bounded time each (FUZZ_SECONDS, default 60), seeded from Go's PngSuite and JPEG fixtures. Not part of `test`.
FUZZ_SECONDS ?= 60
fuzz: install
	scripts/fuzz $(FUZZ_SECONDS)

demo: install
	@echo "make demo will start the Reception emulator and the terminal host app (reception-chat)."
	@echo "They arrive with the host-app issue; until then, run 'make test'."

clean:
	swift package clean
