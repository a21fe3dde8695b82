import Foundation
import ReceptionCore
import Synchronization

/// The plain preferences of spec 7.17 that live outside a session's store: the storage generation of each App ID
/// and the pending identity of the current scope.
/// One small JSON object in a file, replaced atomically. A missing or unreadable file reads as empty (these values
/// are recreated safely: a lost generation only makes an old cache unreachable, which is what logout wants anyway).
package final class FilePreferences: Sendable {
    /// Replaces the whole file with the given bytes.
    package typealias Write = @Sendable (_ data: Data, _ url: URL) throws(ReceptionError) -> Void

    private let url: URL?
    private let write: Write
    private let values: Mutex<[String: String]>

    /// The one instance for `url` in this process: every configuration of the same data folder shares it, so an
    /// older configuration's late write cannot replace a newer one's file with its stale copy.
    package static func shared(url: URL, write: @escaping Write = writeAtomically) -> FilePreferences {
        registry.withLock { instances in
            if let existing = instances[url.standardizedFileURL.path] { return existing }
            let preferences = FilePreferences(url: url, write: write)
            instances[url.standardizedFileURL.path] = preferences
            return preferences
        }
    }

    /// Test knob: the next `shared(url:)` reads the file again, as the first one in a new process does.
    package static func dropShared(url: URL) {
        _ = registry.withLock { $0.removeValue(forKey: url.standardizedFileURL.path) }
    }

    /// The file replaced whole by Foundation's atomic write.
    package static let writeAtomically: Write = { data, url throws(ReceptionError) in
        do { try data.write(to: url, options: .atomic) } catch { throw ReceptionError.storageUnavailable }
    }

    private static let registry = Mutex<[String: FilePreferences]>([:])

    /// Preferences in `url`, or in memory only when `url` is `nil` (a fresh read of the file; see `shared(url:)`).
    package init(url: URL?, write: @escaping Write = writeAtomically) {
        self.url = url
        self.write = write
        var loaded: [String: String] = [:]
        if let url, let data = try? Data(contentsOf: url),
           let object = try? JSONDecoder().decode([String: String].self, from: data) {
            loaded = object
        }
        values = Mutex(loaded)
    }

    package subscript(key: String) -> String? {
        get { values.withLock { $0[key] } }
        set { change { $0[key] = newValue } }
    }

    /// Removes every key `isObsolete` picks, in one write.
    package func removeAll(where isObsolete: (String) -> Bool) {
        change { values in
            for key in values.keys where isObsolete(key) { values[key] = nil }
        }
    }

    /// Changes any keys in one write.
    package func change(_ body: (inout [String: String]) -> Void) {
        // The file is written under the lock: two writers can never put an older snapshot over a newer one (which
        // could bring a removed scope's identity back).
        values.withLock { values in
            let before = values
            body(&values)
            guard values != before, let url, let data = try? JSONEncoder().encode(values) else { return }
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // The previous file is replaced whole, so a removed value is not left behind in it.
            try? write(data, url)
        }
    }
}
