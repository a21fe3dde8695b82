# ReceptionKit: the commands in the README. Every target installs what it needs first (safe to run again).
SHELL := /bin/bash
.DEFAULT_GOAL := test

APT_PACKAGES := libsqlite3-dev zlib1g-dev libmicrohttpd-dev libjpeg-turbo-progs golang-1.19-src pkg-config gdb libheif-dev
PIP_PACKAGES := Pillow PyJWT pillow-heif
SWIFT_TEST_FLAGS ?=

.PHONY: install test test-only check-imports release-check bench fuzz soak demo chat probe clean

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
	@python3 -c "import PIL, jwt, pillow_heif" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)

# The import rule of Docs/ARCHITECTURE.md, and the checker's own self-test.
check-imports:
	@python3 scripts/check-imports --self-test
	@python3 scripts/check-imports

# Every target in release mode with warnings as errors.
release-check: install
	swift build -c release -Xswiftc -warnings-as-errors

# Debug build of every target and test with warnings as errors, then every test (scripts/run-tests: past
# TEST_DEADLINE_SECONDS, 900 by default, it prints the unfinished tests and every thread's stack and fails), then every libFuzzer target for
# FUZZ_TEST_SECONDS each (scripts/fuzz, below): a crash, trap, hang or leak fails `make test`, and the log carries
# the reproducer's path and bytes. The release build with warnings as errors is `make release-check` (run before
# landing; kept out of CI's path to keep the suite well under 15 min).
FUZZ_TEST_SECONDS ?= 15
test: install check-imports
	swift build --build-tests -Xswiftc -warnings-as-errors
	python3 scripts/run-tests -- $(SWIFT_TEST_FLAGS)
	python3 scripts/probe "$$(swift build --show-bin-path)"
	@if [ "$$(uname -s)" = Linux ]; then scripts/fuzz $(FUZZ_TEST_SECONDS); \
	else echo "fuzz: skipped on $$(uname -s): scripts/fuzz needs a Linux toolchain's libFuzzer"; fi

# The test suite without the install step (for quick local runs).
test-only:
	swift test $(SWIFT_TEST_FLAGS)

bench: install
	@if ls Benchmarks/*/ >/dev/null 2>&1; then \
	  for b in Benchmarks/*/; do n=$$(basename $$b); swift run -c release $$n || exit 1; done; \
	else echo "no benchmarks yet"; fi

# A bounded reliability run on loopback (Benchmarks/Soak): several installs send text and photos while answers are
# dropped after commit, 503s, 429s and delays are injected and installs are killed and relaunched; prints sent,
# delivered, lost, duplicated and the peak memory, and fails on any loss or duplicate. SOAK_DEVICES, SOAK_MESSAGES,
# SOAK_SECONDS bound it.
soak: install
	swift build --product Soak
	$$(swift build --show-bin-path)/Soak

# libFuzzer targets (Fuzz/): the PNG and JPEG decoders, identity-token inspection, push payload recognition and the
# emulator's request handling,
# built with -sanitize=fuzzer,address and run for a bounded time each (FUZZ_SECONDS, default 60), seeded from Go's
# PngSuite and JPEG fixtures and small hand-written seeds. `test` runs the same for FUZZ_TEST_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz: install
	scripts/fuzz $(FUZZ_SECONDS)

# A hostile client (scripts/probe, Python, none of our Swift code) against a fresh reception-emulator process:
# extreme numbers, NULs, bodies over their limits announced but never sent, forged signatures, and 1,200 idle or
# half-sent connections while a normal request must be answered within a second. Fails on the first broken check.
probe: install
	swift build --product reception-emulator
	python3 scripts/probe "$$(swift build --show-bin-path)"

# The whole product in one command (Docs/HostApp.md): builds the emulator and the terminal host app (debug: the
# fastest build), then scripts/demo starts the emulator on a free loopback port with a temporary data folder, the
# demo token server, and reception-chat under a pseudo-terminal, plays a scripted conversation and checks every
# step. scripts/demo stops what it started, also on failure or Ctrl-C; the trap below covers a kill of make itself.
demo: install
	swift build --product reception-emulator
	swift build --product reception-chat
	@bin=$$(swift build --show-bin-path); \
	python3 scripts/demo --bin "$$bin" & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid' INT TERM HUP; \
	wait $$pid

# The interactive app against a running emulator. Set RECEPTION_APP_ID (printed by the emulator) and, if needed,
# RECEPTION_SERVICE (default http://127.0.0.1:8080); RECEPTION_USER signs in as a named user, verified when
# RECEPTION_TOKEN_SERVER points at a running scripts/token-server. CHAT_FLAGS passes further flags.
RECEPTION_SERVICE ?= http://127.0.0.1:8080
chat:
	@if [ -z "$(RECEPTION_APP_ID)" ]; then \
	  echo "make chat needs RECEPTION_APP_ID (the App ID the emulator printed), e.g."; \
	  echo "  swift run reception-emulator --port 8080 --data /tmp/emulator   # in another terminal"; \
	  echo "  make chat RECEPTION_APP_ID=app_... [RECEPTION_USER=alice RECEPTION_TOKEN_SERVER=http://127.0.0.1:8081]"; \
	  exit 2; fi
	swift build --product reception-chat
	$$(swift build --show-bin-path)/reception-chat --service "$(RECEPTION_SERVICE)" --app-id "$(RECEPTION_APP_ID)" \
	  --data "$${RECEPTION_CHAT_DATA:-$$HOME/.reception-chat}" \
	  $(if $(RECEPTION_USER),--user "$(RECEPTION_USER)") \
	  $(if $(RECEPTION_TOKEN_SERVER),--token-server "$(RECEPTION_TOKEN_SERVER)") $(CHAT_FLAGS)

clean:
	swift package clean
