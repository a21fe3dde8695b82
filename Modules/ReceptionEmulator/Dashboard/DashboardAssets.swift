import Foundation

/// The dashboard's files (Docs/Dashboard.md): one HTML page, one style sheet and one small JavaScript module per
/// page, written as files under `Resources/Dashboard/` and copied into the emulator's resource bundle. They are read
/// once and kept in memory. Nothing is fetched from elsewhere; the server's Content-Security-Policy allows only these
/// same-origin files to run.
///
/// A missing bundle or file never stops the process: ``problem`` says what is missing (the command prints it once at
/// start), the dashboard's pages answer 503 saying so, and the device API, the admin API and the dashboard's data
/// calls keep working.
struct DashboardAssets: Sendable {
    /// A file with its `Content-Type`.
    struct File: Sendable {
        var bytes: [UInt8]
        var type: String
    }

    /// The page, served at `/dashboard/`.
    static let page = "index.html"

    /// Every file by name with its type: the page, and what `/dashboard/assets/<name>` serves.
    static let types: [String: String] = {
        var types = [page: "text/html; charset=utf-8", "dashboard.css": "text/css; charset=utf-8"]
        for script in [
            "app", "dom", "api", "inbox", "conversation", "composer", "details", "users", "settings", "identity",
            "appearance", "console", "apns",
        ] {
            types[script + ".js"] = "text/javascript; charset=utf-8"
        }
        return types
    }()

    /// Every file by name once all were read; empty when any is missing.
    let files: [String: File]
    /// The files that could not be read, sorted; empty when the dashboard can be served.
    let missing: [String]
    /// What is wrong, for standard error; `nil` when every file was read.
    let problem: String?

    /// Reads every file from `directory`, a folder holding `index.html`, `dashboard.css` and the scripts; `nil` when
    /// no such folder was found.
    init(directory: URL?) {
        guard let directory else {
            files = [:]
            missing = Self.types.keys.sorted()
            problem =
                "the dashboard's files were not found: no \(Self.bundleNames.joined(separator: " or "))"
                + " (with its Dashboard folder) beside the executable. The dashboard answers 503 until they are"
                + " there (rebuild with `swift build`, or copy the bundle beside the binary); the device and admin"
                + " APIs work."
            return
        }
        var read: [String: File] = [:]
        var missing: [String] = []
        for (name, type) in Self.types {
            if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) {
                read[name] = File(bytes: Array(data), type: type)
            } else {
                missing.append(name)
            }
        }
        self.missing = missing.sorted()
        files = missing.isEmpty ? read : [:]
        problem =
            missing.isEmpty
            ? nil
            : "the dashboard's files are incomplete: \(directory.path) lacks \(self.missing.joined(separator: ", "))."
                + " The dashboard answers 503 until they are there; the device and admin APIs work."
    }

    /// The files of the emulator's resource bundle, read on first use.
    static let bundled = DashboardAssets(directory: bundledDirectory())

    /// SwiftPM's bundle of this target: `.resources` on Linux, `.bundle` on Apple platforms.
    static let bundleNames = ["ReceptionKit_ReceptionEmulator.resources", "ReceptionKit_ReceptionEmulator.bundle"]

    /// The `Dashboard` folder of the resource bundle, looked up without SwiftPM's `Bundle.module` (which stops the
    /// process when the bundle is missing): beside the executable or inside the app, then in the source tree.
    /// `Bundle.allBundles` is not asked: swift-corelibs-foundation leaks its list (LeakSanitizer, `make fuzz`), and
    /// SwiftPM puts the bundle beside the executable (the emulator's, or the test runner's) anyway.
    static func bundledDirectory() -> URL? {
        var directories: [URL] = []
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL?.deletingLastPathComponent() { directories.append(executable) }
        var candidates: [URL] = []
        for directory in directories {
            for name in bundleNames {
                let bundle = directory.appendingPathComponent(name)
                candidates.append(bundle.appendingPathComponent("Dashboard"))
                candidates.append(bundle.appendingPathComponent("Contents/Resources/Dashboard"))
            }
        }
        // A build from this checkout (tests, `swift run`) also finds the files where they are written.
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Resources/Dashboard"))
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// The answer to a dashboard page or file while ``problem`` is set (503): which files are missing and how to get
    /// them; no path of this machine.
    var unavailablePage: [UInt8] {
        let list = missing.map { "<li><code>\($0)</code></li>" }.joined()
        return Array(
            """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Dashboard unavailable · Reception emulator</title></head>
            <body>
            <main>
            <h1>The dashboard's files are missing</h1>
            <p>This <code>reception-emulator</code> could not read these files of its resource bundle
            (<code>\(Self.bundleNames[0])/Dashboard</code>, beside the executable):</p>
            <ul>\(list)</ul>
            <p>Rebuild with <code>swift build</code>, or copy the bundle beside the binary, then restart it. The device
            API (<code>/v1/</code>) and the admin API keep working; the emulator printed the same error when it
            started.</p>
            </main>
            </body>
            </html>

            """.utf8)
    }

    /// The answer to every dashboard page without a session (401): how to get the sign-in URL. It stays in the
    /// binary, so it is shown even when the files are missing.
    static let signedOut = #"""
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Sign in · Reception dashboard</title></head>
        <body>
        <main>
        <h1>Sign in to the dashboard</h1>
        <p>This browser is not signed in. Open the <strong>Dashboard</strong> URL that
        <code>reception-emulator</code> printed when it started:</p>
        <pre>Dashboard: http://127.0.0.1:PORT/dashboard/sign-in/…</pre>
        <p>Every start prints a new URL, and a restart signs every browser out. With <code>make demo</code> the URL
        is printed beside the transcript.</p>
        </main>
        </body>
        </html>
        """#
}
