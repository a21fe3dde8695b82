import Foundation
import ReceptionCore

/// The plain preferences of spec 7.17 that live outside a session's store: the storage generation of each App ID
/// and the pending identity of the current scope.
/// One small JSON object in a file of mode 0600, replaced atomically (`PrivateFiles.write`). A missing or unreadable
/// file reads as empty (these values are recreated safely: a lost generation only makes an old cache unreachable,
/// which is what logout wants anyway).
///
/// A write that fails (a full disk) is logged and the values stay in memory, marked unwritten: the next change writes
/// the whole file again, and so does `writeIfUnwritten()`. A rotation's write is covered beyond the process by the
/// `RotationJournal` (issue 15).
final class FilePreferences: Sendable {
    /// Replaces the whole file with the given bytes.
    typealias Write = @Sendable (_ data: Data, _ url: URL) throws(ReceptionError) -> Void

    private struct State {
        var values: [String: String]
        /// The file does not hold `values`: the last write failed.
        var unwritten = false
    }

    private let url: URL?
    private let write: Write
    private let logger: ReceptionLogger
    private let state: Locked<State>

    /// The one instance for `url` in this process: every configuration of the same data folder shares it, so an
    /// older configuration's late write cannot replace a newer one's file with its stale copy.
    @_optimize(size) static func shared(
        url: URL, write: @escaping Write = writeAtomically, logger: ReceptionLogger = .silent
    ) -> FilePreferences {
        registry.withLock { instance(in: &$0, url: url, write: write, logger: logger) }
    }

    /// `shared(url:)` under the registry's lock. Never inlined: the lock's closure calls it, and closures are
    /// compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private static func instance(
        in instances: inout KeyedList<FilePreferences>, url: URL, write: @escaping Write, logger: ReceptionLogger
    ) -> FilePreferences {
        if let existing = instances[url.standardizedFileURL.path] { return existing }
        let preferences = FilePreferences(url: url, write: write, logger: logger)
        instances[url.standardizedFileURL.path] = preferences
        return preferences
    }

    /// Test knob: the next `shared(url:)` reads the file again, as the first one in a new process does.
    @_optimize(size) static func dropShared(url: URL) {
        _ = registry.withLock { $0.removeValue(forKey: url.standardizedFileURL.path) }
    }

    /// The file replaced whole, mode 0600, in a folder created 0700 (issue 15).
    static let writeAtomically: Write = { data, url throws(ReceptionError) in
        try PrivateFiles.createFolder(url.deletingLastPathComponent())
        try PrivateFiles.write(data, to: url)
    }

    /// The instances by standardized path: one or two in an app (a `KeyedList`, Docs/Footprint.md).
    private static let registry = Locked<KeyedList<FilePreferences>>(KeyedList())

    /// Preferences in `url`, or in memory only when `url` is `nil` (a fresh read of the file; see `shared(url:)`).
    /// A file an earlier version left readable by others is tightened to 0600, and temporary files an interrupted
    /// write left beside it (older copies of it) are removed.
    @_optimize(size)
    package init(url: URL?, write: @escaping Write = writeAtomically, logger: ReceptionLogger = .silent) {
        self.url = url
        self.write = write
        self.logger = logger
        var loaded: [String: String] = [:]
        if let url {
            PrivateFiles.restrict(url)
            PrivateFiles.removeLeftovers(of: url)
            if let data = try? Data(contentsOf: url),
               let object = try? JSONDecoder().decode([String: String].self, from: data) {
                loaded = object
            }
        }
        state = Locked(State(values: loaded))
    }

    @_optimize(size) subscript(key: String) -> String? {
        get { state.withLock { $0.values[key] } }
        set { change { $0[key] = newValue } }
    }

    /// Removes every key `isObsolete` picks, in one write.
    @_optimize(size) func removeAll(where isObsolete: (String) -> Bool) {
        change { values in
            for key in values.keys where isObsolete(key) { values[key] = nil }
        }
    }

    /// Changes any keys in one write. Returns whether the file holds the values afterwards (`false`: the write
    /// failed, was logged, and the values wait in memory for the next write).
    @discardableResult
    @_optimize(size) func change(_ body: (inout [String: String]) -> Void) -> Bool {
        // The file is written under the lock: two writers can never put an older snapshot over a newer one (which
        // could bring a removed scope's identity back).
        state.withLock { state in
            let before = state.values
            body(&state.values)
            // Unchanged values are not rewritten, unless the file missed an earlier change.
            guard state.values != before || state.unwritten else { return true }
            return persist(&state)
        }
    }

    /// Writes the values again if an earlier write failed; whether the file holds them now.
    @discardableResult
    @_optimize(size) func writeIfUnwritten() -> Bool {
        state.withLock { state in state.unwritten ? persist(&state) : true }
    }

    /// Whether the file holds the values (no failed write is waiting).
    @_optimize(size) var isWritten: Bool { state.withLock { !$0.unwritten } }

    @_optimize(size) private func persist(_ state: inout State) -> Bool {
        guard let url, let data = try? JSONEncoder().encode(state.values) else { return url == nil }
        do throws(ReceptionError) {
            // The previous file is replaced whole, so a removed value is not left behind in it.
            try write(data, url)
            if state.unwritten { logger.write(.info, "\(url.lastPathComponent) was written after an earlier failure") }
            state.unwritten = false
            return true
        } catch {
            logger.write(.error, """
                \(url.lastPathComponent) could not be written (\(error.code)); the change is kept in memory and \
                written again at the next change
                """)
            state.unwritten = true
            return false
        }
    }
}
