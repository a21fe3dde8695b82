// swift-tools-version:6.0
// ReceptionKit: a native support-chat SDK and a local emulator of the service it talks to.
// One package, one target per module under Modules/, one test target per module under Tests/.
// Docs/ARCHITECTURE.md says who may import whom; scripts/check-imports enforces it.
// Targets and products are grouped by role, in the same order: C libraries, core, plug-ins, feature modules,
// facade, testing kit, emulator, executables, tests, benchmarks (the fuzz targets are built by scripts/fuzz).
import PackageDescription

let package = Package(
    name: "ReceptionKit",
    // iOS 17 / macOS 14: nothing in the package imports Synchronization (iOS 18 / macOS 15). Libraries a host links
    // use ReceptionCore's Locked; the emulator (and its tests) its own EmulatorLock (scripts/check-imports).
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        // Core.
        .library(name: "Digest", targets: ["Digest"]),
        .library(name: "ReceptionCore", targets: ["ReceptionCore"]),
        // Plug-ins.
        .library(name: "SecureStore", targets: ["SecureStore"]),
        .library(name: "MessageCache", targets: ["MessageCache"]),
        .library(name: "JPEGCodec", targets: ["JPEGCodec"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "Transport", targets: ["Transport"]),
        // Feature modules.
        .library(name: "Identity", targets: ["Identity"]),
        .library(name: "Conversation", targets: ["Conversation"]),
        .library(name: "Unread", targets: ["Unread"]),
        .library(name: "PushRouting", targets: ["PushRouting"]),
        // The chat on iPhone (SwiftUI; empty where SwiftUI and UIKit are absent). The facade re-exports it.
        .library(name: "ReceptionUI", targets: ["ReceptionUI"]),
        // Facade.
        .library(name: "ReceptionKit", targets: ["ReceptionKit"]),
        // Testing kit.
        .library(name: "ReceptionTesting", targets: ["ReceptionTesting"]),
        // Emulator.
        .library(name: "ReceptionEmulator", targets: ["ReceptionEmulator"]),
        // Executables.
        .executable(name: "reception-emulator", targets: ["reception-emulator"]),
        .executable(name: "reception-chat", targets: ["reception-chat"]),
        .executable(name: "reception-image", targets: ["reception-image"]),
    ],
    targets: [
        // MARK: C libraries
        // From the system (Debian: libsqlite3-dev, zlib1g-dev, libheif-dev, libgif-dev, libwebp-dev, libtiff-dev,
        // libmicrohttpd-dev, libcurl4-openssl-dev, libssl-dev), each with a shim.h.
        .systemLibrary(
            name: "CSQLite", path: "Modules/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        .systemLibrary(
            name: "CZlib", path: "Modules/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // HEIC photos on Linux; Apple platforms decode them through ImageIO and never build it.
        .systemLibrary(
            name: "CHeif", path: "Modules/CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // GIF, WebP and TIFF photos on Linux (issue 51); Apple platforms decode them through ImageIO.
        .systemLibrary(name: "CGif", path: "Modules/CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Modules/CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CTIFF", path: "Modules/CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // The emulator's HTTP server.
        .systemLibrary(
            name: "CMicroHTTPD", path: "Modules/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // The emulator's APNs provider: HTTP/2 to Apple (libcurl with nghttp2) and ES256 provider tokens signed with
        // the team's .p8 key (OpenSSL's libcrypto). No library a host links uses either.
        .systemLibrary(
            name: "CCurl", path: "Modules/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CCrypto", path: "Modules/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),

        // MARK: Core
        // Foundation-free SHA-256, HMAC-SHA256 and Base64: the one target client and emulator both import.
        .target(name: "Digest", path: "Modules/Digest"),
        // The shared vocabulary: errors, events, wire models, limits, and the seams a host may replace.
        .target(
            name: "ReceptionCore", dependencies: ["Digest"], path: "Modules/ReceptionCore",
            resources: [.copy("PrivacyInfo.xcprivacy")]),

        // MARK: Plug-ins (each on ReceptionCore and its own C library only; a host may bring its own instead)
        // Secure storage of session credentials: files on Linux, Keychain on Apple platforms.
        .target(
            name: "SecureStore", dependencies: ["ReceptionCore"], path: "Modules/SecureStore",
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The default message store: one SQLite file in WAL mode (Docs/MessageCache.md).
        .target(name: "MessageCache", dependencies: ["ReceptionCore", "CSQLite"], path: "Modules/MessageCache"),
        // The JPEG codec (encoder, decoder, area resampler): imports nothing, not even Foundation, so it also
        // compiles in Embedded Swift (`make arm-lab` runs it on arm64 under qemu; Docs/JPEGCodec.md).
        .target(name: "JPEGCodec", path: "Modules/JPEGCodec"),
        // Netpbm (P6/P5) files for reception-image, the tests and the benchmarks: not in any product, so no app links
        // it (Docs/Footprint.md).
        .target(name: "PixmapFiles", dependencies: ["JPEGCodec"], path: "Modules/PixmapFiles"),
        // Photo preparation (spec 7.9) over JPEGCodec: PNG decoding through CZlib; HEIC, GIF, WebP and TIFF through
        // ImageIO on Apple platforms and libheif, giflib, libwebp and libtiff on Linux; the preparation policy, the
        // `ReceptionError` seam.
        .target(
            name: "ImagePipeline",
            dependencies: [
                "ReceptionCore", "Digest", "JPEGCodec", "CZlib",
                .target(name: "CHeif", condition: .when(platforms: [.linux])),
                .target(name: "CGif", condition: .when(platforms: [.linux])),
                .target(name: "CWebP", condition: .when(platforms: [.linux])),
                .target(name: "CTIFF", condition: .when(platforms: [.linux])),
            ],
            path: "Modules/ImagePipeline"),
        // The client side of the HTTP protocol: typed endpoints, cooldowns, token refresh, halting, the event stream.
        .target(name: "Transport", dependencies: ["ReceptionCore", "Digest"], path: "Modules/Transport"),

        // MARK: Feature modules (each on ReceptionCore only, never on each other; the facade wires them)
        // Who the user is: identity and metadata staging, identity-token inspection, the device payload (Docs/Identity.md).
        .target(name: "Identity", dependencies: ["ReceptionCore", "Digest"], path: "Modules/Identity"),
        // The chat engine: send pipeline, outbox, automatic resend, history merge, reads, typing, stream, banner.
        .target(
            name: "Conversation", dependencies: ["ReceptionCore", "Digest"], path: "Modules/Conversation",
            resources: [.copy("Resources/ChatTexts.xcstrings")]),
        // The unread count, its polling schedule, the app-icon badge and notification cleanup (Docs/Unread.md).
        .target(name: "Unread", dependencies: ["ReceptionCore"], path: "Modules/Unread"),
        // Push token staging, APNs environment resolution and payload recognition (Docs/PushRouting.md).
        .target(name: "PushRouting", dependencies: ["ReceptionCore", "Digest"], path: "Modules/PushRouting"),

        // MARK: The chat on iPhone
        // ReceptionChatView and its screens (SwiftUI, UIKit, PhotosUI, ImageIO), laid out from Conversation's
        // presentation types over ChatModel; compiled where SwiftUI and UIKit exist, empty elsewhere (Docs/ReceptionUI.md).
        .target(name: "ReceptionUI", dependencies: ["Conversation", "ReceptionCore"], path: "Modules/ReceptionUI"),

        // MARK: Facade
        // What a host imports: Reception.shared, configuration, the default composition, the account lifecycle, the
        // SDK sheet; it re-exports ReceptionUI, so `import ReceptionKit` gives ReceptionChatView.
        .target(
            name: "ReceptionKit",
            dependencies: [
                "ReceptionCore", "Digest", "SecureStore", "MessageCache", "ImagePipeline", "Transport", "Identity",
                "Conversation", "Unread", "PushRouting", "ReceptionUI",
            ],
            path: "Modules/ReceptionKit"),

        // MARK: Testing kit
        // Fakes that hosts and our own tests use: in-memory stores, a manual clock, recording sinks, contracts.
        .target(name: "ReceptionTesting", dependencies: ["ReceptionCore"], path: "Modules/ReceptionTesting"),

        // MARK: Emulator
        // The service side (Docs/Emulator.md): HTTP on libmicrohttpd, storage in SQLite, the dashboard, the APNs
        // provider (libcurl, libcrypto).
        .target(
            name: "ReceptionEmulator", dependencies: ["Digest", "CSQLite", "CMicroHTTPD", "CCurl", "CCrypto"],
            path: "Modules/ReceptionEmulator", resources: [.copy("Resources/Dashboard")]),

        // MARK: Executables
        .executableTarget(
            name: "reception-emulator", dependencies: ["ReceptionEmulator"], path: "Modules/reception-emulator"),
        // The terminal host app (Docs/HostApp.md): embeds ReceptionKit as an iOS app would; `make demo` drives it.
        .executableTarget(
            name: "reception-chat", dependencies: ["ReceptionKit", "ReceptionCore", "Conversation", "PushRouting", "Digest"],
            path: "Modules/reception-chat"),
        // Command-line front end of the image pipeline for host developers and benchmark harnesses.
        .executableTarget(
            name: "reception-image", dependencies: ["ImagePipeline", "JPEGCodec", "PixmapFiles", "ReceptionCore"],
            path: "Modules/reception-image"),

        // MARK: Tests (one target per module)
        .testTarget(name: "DigestTests", dependencies: ["Digest"], path: "Tests/DigestTests"),
        .testTarget(
            name: "ReceptionCoreTests", dependencies: ["ReceptionCore", "ReceptionTesting"],
            path: "Tests/ReceptionCoreTests"),
        .testTarget(
            name: "SystemLibrariesTests", dependencies: ["CSQLite", "CZlib"],
            path: "Tests/SystemLibrariesTests"),
        .testTarget(
            name: "SecureStoreTests", dependencies: ["SecureStore", "ReceptionCore", "ReceptionTesting"],
            path: "Tests/SecureStoreTests"),
        .testTarget(
            name: "MessageCacheTests", dependencies: ["MessageCache", "ReceptionCore", "ReceptionTesting", "CSQLite"],
            path: "Tests/MessageCacheTests"),
        // The process the crash-safety and lock tests start and kill; built with the tests by `swift test`.
        .executableTarget(
            name: "message-cache-child", dependencies: ["MessageCache", "ReceptionCore", "ReceptionTesting", "CSQLite"],
            path: "Tests/MessageCacheChild"),
        .testTarget(
            name: "ImagePipelineTests", dependencies: ["ImagePipeline", "JPEGCodec", "PixmapFiles", "ReceptionCore", "ReceptionTesting"],
            path: "Tests/ImagePipelineTests"),
        .testTarget(
            name: "TransportTests",
            dependencies: ["Transport", "ReceptionCore", "ReceptionTesting", "Digest", "ReceptionEmulator"],
            path: "Tests/TransportTests", exclude: ["Fixtures"]),
        .testTarget(
            name: "IdentityTests", dependencies: ["Identity", "ReceptionCore", "ReceptionTesting", "Transport", "Digest"],
            path: "Tests/IdentityTests"),
        .testTarget(
            name: "ConversationTests",
            dependencies: [
                "Conversation", "ReceptionCore", "ReceptionTesting", "Transport", "MessageCache", "ReceptionEmulator",
            ],
            path: "Tests/ConversationTests"),
        .testTarget(
            name: "UnreadTests",
            dependencies: [
                "Unread", "PushRouting", "ReceptionCore", "ReceptionTesting", "Transport", "ReceptionEmulator",
            ],
            path: "Tests/UnreadTests"),
        .testTarget(
            name: "PushRoutingTests", dependencies: ["PushRouting", "ReceptionCore", "ReceptionTesting"],
            path: "Tests/PushRoutingTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ReceptionKitTests",
            dependencies: [
                "ReceptionKit", "ReceptionCore", "ReceptionTesting", "Transport", "ReceptionEmulator", "SecureStore",
                "Conversation", "ImagePipeline", "Identity", "MessageCache", "PushRouting", "Unread",
            ],
            path: "Tests/ReceptionKitTests"),
        .testTarget(
            name: "ReceptionTestingTests", dependencies: ["ReceptionTesting", "ReceptionCore"],
            path: "Tests/ReceptionTestingTests"),
        .testTarget(
            name: "ReceptionEmulatorTests", dependencies: ["ReceptionEmulator", "Digest", "ReceptionTesting", "CCrypto"],
            path: "Tests/ReceptionEmulatorTests"),
        // Drives the built reception-chat binary through a pseudo-terminal against the in-process emulator.
        .testTarget(
            name: "ReceptionChatTests", dependencies: ["ReceptionEmulator", "ReceptionTesting"], path: "Tests/ReceptionChatTests"),

        // MARK: Benchmarks (each prints our figure beside a baseline from the same run; `make bench`)
        // Append, window load and outbox round trip beside raw SQLite and a rewrite-one-JSON-file baseline.
        .executableTarget(
            name: "CacheBench", dependencies: ["MessageCache", "ReceptionCore", "CSQLite"],
            path: "Benchmarks/CacheBench"),
        // Codec speed and size against libjpeg-turbo (through Pillow) on the same images in the same run.
        .executableTarget(
            name: "ImageBench", dependencies: ["ImagePipeline", "JPEGCodec", "PixmapFiles", "ReceptionCore", "ReceptionTesting"], path: "Benchmarks/ImageBench"),
        // Sequential authenticated requests through our client beside bare URLSession, same emulator, same run.
        .executableTarget(
            name: "TransportBench",
            dependencies: ["Transport", "ReceptionCore", "ReceptionTesting", "ReceptionEmulator"],
            path: "Benchmarks/TransportBench"),
        .executableTarget(
            name: "EmulatorBench", dependencies: ["ReceptionEmulator", "CMicroHTTPD"], path: "Benchmarks/EmulatorBench"),
        // Issue 53: the main actor's work per chat event at 50, 500 and 5,000 messages beside the whole-transcript
        // compare and rebuild of before, on the same publications of a real engine (Docs/Footprint.md).
        .executableTarget(
            name: "ChatEventBench", dependencies: ["Conversation", "ReceptionCore", "ReceptionTesting"],
            path: "Benchmarks/ChatEventBench"),
        // Docs/Footprint.md: what the SDK costs a host (scripts/footprint): run-time figures, and the minimal host
        // whose release binary size is the baseline of the SDK's added size.
        .executableTarget(
            name: "Footprint", dependencies: ["ReceptionKit", "ReceptionCore", "ImagePipeline"],
            path: "Benchmarks/Footprint", exclude: ["malloc-counter.c", "recorded.json", "recorded-ios.json"]),
        .executableTarget(name: "FootprintHost", path: "Benchmarks/FootprintHost"),
        // The bounded reliability run of `make soak`: installs sending under faults and kills, nothing lost or doubled.
        .executableTarget(
            name: "Soak", dependencies: ["ReceptionKit", "ReceptionCore", "ReceptionEmulator", "SecureStore"],
            path: "Benchmarks/Soak"),

        // MARK: Fuzz
        // Fuzz/<Target>/ are libFuzzer entry points compiled by scripts/fuzz with `swiftc -sanitize=fuzzer`, outside
        // SwiftPM (a fuzzer main cannot coexist with the package's executables); `make fuzz`, and `make test` for 15 s.
    ],
    swiftLanguageModes: [.v6]
)
