import Foundation
import MessageCache
import ReceptionCore

/// The design under test: `SQLiteMessageStore`, one call per change.
struct StoreContender: Contender {
    let name = "SQLiteMessageStore"
    let store: SQLiteMessageStore

    init(directory: URL) throws {
        store = try SQLiteMessageStore(directory: directory, scope: Workload.scope, logger: .silent)
    }

    func appendConfirmed(_ message: StoredMessage) throws { try store.save([message]) }
    func loadWindowCount() throws -> Int { try store.loadWindow().count }
    func enqueue(_ message: StoredMessage) throws { try store.enqueue(message) }
    func complete(_ id: String, with confirmed: StoredMessage) throws { try store.complete(id, with: confirmed) }
}

/// The reference SDK's design (spec 7.17): the whole window in one JSON file, rewritten atomically on every
/// change, photos inside as base64.
final class JSONFileContender: Contender {
    let name = "JSON file rewrite"
    private let file: URL
    private var messages: [StoredMessage] = []
    private let encoder = JSONEncoder()

    init(directory: URL) {
        file = directory.appendingPathComponent("chat-cache.json")
    }

    private func persist() throws {
        // The window rule, applied before every write like the reference implementation.
        let confirmed = messages.filter(\.isConfirmed).sorted { ($0.seq ?? 0) < ($1.seq ?? 0) }.suffix(50)
        messages = Array(confirmed) + messages.filter { !$0.isConfirmed }
        try encoder.encode(messages).write(to: file, options: .atomic)
    }

    func appendConfirmed(_ message: StoredMessage) throws {
        messages.append(message)
        try persist()
    }

    func loadWindowCount() throws -> Int {
        try JSONDecoder().decode([StoredMessage].self, from: Data(contentsOf: file)).count
    }

    func enqueue(_ message: StoredMessage) throws {
        messages.append(message)
        try persist()
    }

    func complete(_ id: String, with confirmed: StoredMessage) throws {
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return }
        messages[index] = confirmed
        try persist()
    }
}
