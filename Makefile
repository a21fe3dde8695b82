# ReceptionKit: the commands in the README. Every target installs what it needs first (safe to run again).
SHELL := /bin/bash
.DEFAULT_GOAL := test

APT_PACKAGES := libsqlite3-dev zlib1g-dev libmicrohttpd-dev libjpeg-turbo-progs golang-1.19-src pkg-config gdb chromium chromium-driver libheif-dev libgif-dev libwebp-dev libtiff-dev webp libtiff-tools gifsicle libcurl4-openssl-dev libssl-dev qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross ruby ruby-jwt node-jose golang-go golang-github-golang-jwt-jwt-dev icc-profiles-free
PIP_PACKAGES := Pillow PyJWT selenium pillow-heif h2 cryptography
SWIFT_TEST_FLAGS ?=

.PHONY: install test test-only arm-lab check-imports cold-code ios-check privacy-check notification-ownership-check version-check release-check bench fuzz soak demo dashboard chat probe docs docs-serve footprint clean

# Installs missing Debian packages by name without prompting, and the Python test tools. It prints one line per step
# that installs something ("installing apt: <packages>", "installing pip: <packages>"); apt's and pip's own output
# goes to INSTALL_LOG, whose last lines are shown only when a step fails (make then stops). Does nothing, and prints
# nothing, when all are present, so it is safe to run again. pip's warning about running as root is silenced with
# --root-user-action=ignore where pip knows that option (22.1 and later).
INSTALL_LOG := .build/install.log
install:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing apt:$$missing"; mkdir -p "$(dir $(INSTALL_LOG))"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo -n"; \
	  apt="$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0"; \
	  { $$apt update && $$apt install --no-install-recommends $$missing; } </dev/null >"$(INSTALL_LOG)" 2>&1 || { \
	    echo "install: apt-get failed; the end of $(INSTALL_LOG):"; tail -n 30 "$(INSTALL_LOG)"; exit 1; }; \
	fi
	@python3 -c "import PIL, jwt, selenium, pillow_heif, h2, cryptography" 2>/dev/null || { \
	  echo "installing pip: $(PIP_PACKAGES)"; mkdir -p "$(dir $(INSTALL_LOG))"; \
	  flags="--disable-pip-version-check --no-input"; \
	  python3 -m pip install --help 2>/dev/null | grep -q -- --root-user-action && \
	    flags="$$flags --root-user-action=ignore"; \
	  python3 -m pip install $$flags $(PIP_PACKAGES) </dev/null >>"$(INSTALL_LOG)" 2>&1 || { \
	    echo "install: pip failed; the end of $(INSTALL_LOG):"; tail -n 30 "$(INSTALL_LOG)"; exit 1; }; }

# The photo codec on arm64 (scripts/arm-lab; Docs/JPEGCodec.md, "On arm64"): Modules/JPEGCodec built in Embedded Swift
# for aarch64 into .build/arm-lab/reception-image-arm64 and run under qemu-aarch64: every output byte-identical to
# the x86-64 reception-image's (`--check`, also in `make test`, about a minute), where the executed instructions go
# and which are vector ones (`--disassembly`), and the executed instructions of our encode, decode and preparation
# beside libjpeg-turbo's arm64 cjpeg and djpeg (NEON) on the varied set cropped to 1 MP (`--count`, also in
# `make bench`; counting runs at about 1 M instructions a second, so the whole set takes about half an hour;
# ARM_LAB_PHOTOS=N counts the first N photos).
arm-lab: install
	python3 scripts/arm-lab

# The import rule of Docs/ARCHITECTURE.md, and the checker's own self-test.
check-imports:
	@python3 scripts/check-imports --self-test
	@python3 scripts/check-imports

# Cold code compiled for size (scripts/cold-code, Docs/Footprint.md): every function in the files it lists carries
# @_optimize(size), and no other host-linked file does; the checker's self-test runs first.
cold-code:
	@python3 scripts/cold-code --self-test
	@python3 scripts/cold-code --check

# Every library a host links, then each sample host app under Examples/ (Examples/SeedSamples: the documents' Swift
# samples pasted into a SwiftUI app), for iOS 17 arm64 (scripts/ios-check): on macOS `xcodebuild build` for a
# generic iOS device; on Linux, against an iPhoneOS SDK (IOS_SDK, or ~/.cache/ios-sdk; Docs/Apple.md), where
# ../shared/tools/ios-build exists, a real build: every host library and both sample apps compiled to arm64 objects
# in Swift 6 mode at -O (IOS_BUILD_OPT="-Onone -O" for both levels) and ReceptionExample linked into an arm64
# executable (about 2.5 min); it fails on a compile error or on a symbol left unresolved beyond the SDK snapshot's
# stub gaps. Without the builder, a type-check in dependency order (about 1 min; IOS_TYPECHECK=1 runs it beside the
# build too). Without an SDK it prints one `skipped:` line and succeeds.
# Then the size on iOS (scripts/ios-size --reuse, Docs/Footprint.md "Size on iOS"): what each SDK module keeps in
# ReceptionExample at -O, from ld64's link map, failing on growth beyond 10% of Benchmarks/Footprint/recorded-ios.json.
IOS_BUILD_OPT ?= -O
ios-check:
	@IOS_BUILD_OPT="$(IOS_BUILD_OPT)" python3 scripts/ios-check
	@case " $(IOS_BUILD_OPT) " in *" -O "*) python3 scripts/ios-size --reuse;; \
	*) echo "ios-size: skipped: IOS_BUILD_OPT has no -O build";; esac

# The privacy manifests (scripts/privacy-check, Docs/Apple.md "Privacy manifests"): each PrivacyInfo.xcprivacy parses
# as a property list, says no tracking and the data the SDK collects, and is copied by its target in Package.swift;
# a host-linked module that calls an API on Apple's required-reason list (stat, systemUptime, UserDefaults, …)
# without its category declared fails. The checker's self-test runs first.
privacy-check:
	@python3 scripts/privacy-check --self-test
	@python3 scripts/privacy-check

# Seed 002: the host app owns notification permission, APNs registration, delegates and foreground presentation; a
# host-linked module that calls requestAuthorization, registerForRemoteNotifications, sets a notification-center or
# application delegate, or names presentation options fails (scripts/notification-ownership-check, self-test first).
notification-ownership-check:
	@python3 scripts/notification-ownership-check --self-test
	@python3 scripts/notification-ownership-check

# Reception.version equals the newest CHANGELOG.md entry (README, "Versions").
version-check:
	@python3 scripts/version-check

# Every target in release mode with warnings as errors.
release-check: install
	swift build -c release -Xswiftc -warnings-as-errors

# After the import rule, the cold-code rule, the iOS check, the privacy manifests and the version (check-imports,
# cold-code, ios-check, privacy-check, version-check: above), a debug build of every target and test
# with warnings as errors, then every test (scripts/run-tests: past
# TEST_DEADLINE_SECONDS, 900 by default, it prints the unfinished tests and every thread's stack and fails), then every libFuzzer target for
# FUZZ_TEST_SECONDS each (scripts/fuzz, below): a crash, trap, hang or leak fails `make test`, and the log carries
# the reproducer's path and bytes. Before the fuzzers, scripts/dashboard-tests drives the dashboard in headless
# Chromium (chromedriver, selenium) against a real emulator and reception-chat (about 20 s), taking a screenshot of
# each page (DASHBOARD_SCREENSHOTS, below); then `make docs` with a browser check of the site
# (scripts/docs-browser-test) and the footprint's size check (scripts/footprint); then the probe again against a release build of the
# emulator (a release build once freed the emulator while it kept listening, so every request got 503). The release build with warnings as errors is `make release-check` (run before
# landing; kept out of CI's path to keep the suite well under 15 min).
FUZZ_TEST_SECONDS ?= 15
# The browser tests run twice: as they are, and again with every browser request delayed this many milliseconds
# (Chromium's network emulation, about 80 s), so that a check reading a page before its redraw finished, or a page
# drawing after the router left it, fails every run instead of now and then on a loaded machine.
DASHBOARD_LATENCY_MS ?= 150
# Where the browser tests put their page screenshots: outside the tree by default, so a test run never changes a
# tracked file; `make test DASHBOARD_SCREENSHOTS=Docs/images` refreshes the ones Docs/Dashboard.md shows.
DASHBOARD_SCREENSHOTS ?= .build/dashboard-screenshots
test: install check-imports cold-code ios-check privacy-check notification-ownership-check version-check
	swift build --build-tests -Xswiftc -warnings-as-errors
	python3 scripts/run-tests -- $(SWIFT_TEST_FLAGS)
	python3 scripts/arm-lab --check --disassembly
	python3 scripts/probe "$$(swift build --show-bin-path)"
	scripts/dashboard-js-check
	python3 scripts/dashboard-tests "$$(swift build --show-bin-path)" --screenshots "$(DASHBOARD_SCREENSHOTS)"
	python3 scripts/dashboard-tests "$$(swift build --show-bin-path)" --latency $(DASHBOARD_LATENCY_MS)
	python3 scripts/docs
	python3 scripts/docs-browser-test
	python3 scripts/footprint
	swift build -c release --product reception-emulator
	python3 scripts/probe "$$(swift build -c release --show-bin-path)"
	@if [ "$$(uname -s)" = Linux ]; then scripts/fuzz $(FUZZ_TEST_SECONDS); \
	else echo "fuzz: skipped on $$(uname -s): scripts/fuzz needs a Linux toolchain's libFuzzer"; fi

# The DocC documentation of every library a host imports, as one static site in .build/docs (scripts/docs: symbol
# graphs from a fresh swift build in a build folder of its own (about 2 min), docc convert with warnings as errors, docc merge, static
# hosting). A public symbol without documentation or a broken link fails it. `docs-serve` serves the site on
# loopback (DOCS_PORT, default 8000); start at /documentation/receptionkit.
DOCS_PORT ?= 8000
docs: install
	python3 scripts/docs

docs-serve: docs
	@echo "docs: http://127.0.0.1:$(DOCS_PORT)/documentation/receptionkit (Ctrl-C stops)"
	python3 -m http.server --bind 127.0.0.1 --directory .build/docs $(DOCS_PORT)

# Docs/Footprint.md's figures: the release size the SDK adds to a host (checked against
# Benchmarks/Footprint/recorded.json, +10% allowed, in `make test` too), per module, the cold configure cost and the
# memory of an idle SDK and of an open chat (`--run`). FOOTPRINT_FLAGS=--record writes a new recorded size.
footprint: install
	python3 scripts/footprint --run $(FOOTPRINT_FLAGS)
	python3 scripts/ios-size $(FOOTPRINT_FLAGS)

# The test suite without the install step (for quick local runs).
test-only:
	swift test $(SWIFT_TEST_FLAGS)

bench: install
	@if ls Benchmarks/*/ >/dev/null 2>&1; then \
	  for b in Benchmarks/*/; do n=$$(basename $$b); \
	    if [ $$n = ArmLab ]; then python3 scripts/arm-lab --count || exit 1; else swift run -c release $$n || exit 1; fi; \
	  done; \
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
# step, printing the dashboard's sign-in URL beside the transcript (`make demo DEMO_FLAGS=--hold` keeps the emulator
# and its dashboard running afterwards, until Ctrl-C). scripts/demo stops what it started, also on failure or
# Ctrl-C; the trap below covers a kill of make itself.
# An emulator with the demo customers (`--seed demo`) in a fresh temporary data folder; its banner prints the
# dashboard URL to open. Ctrl-C stops it and deletes the folder. DASHBOARD_PORT picks the port (default 8080).
DASHBOARD_PORT ?= 8080
dashboard: install
	swift build --product reception-emulator
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	"$$(swift build --show-bin-path)/reception-emulator" --port $(DASHBOARD_PORT) --data "$$dir" --seed demo || true

demo: install
	swift build --product reception-emulator
	swift build --product reception-chat
	@bin=$$(swift build --show-bin-path); \
	python3 scripts/demo --bin "$$bin" $(DEMO_FLAGS) & pid=$$!; \
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
