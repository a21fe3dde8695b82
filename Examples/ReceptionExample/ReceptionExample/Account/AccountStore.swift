import Foundation

/// Keeps the signed-in user across launches in one JSON file in Application Support (a real app keeps its session
/// in its own account layer). A missing or unreadable file means signed out.
struct AccountStore {
    var fileURL: URL = URL.applicationSupportDirectory
        .appending(path: "ReceptionExample", directoryHint: .isDirectory)
        .appending(path: "account.json")

    func load() -> ExampleUser? {
        guard let data = try? Data(contentsOf: fileURL) else { return nil }
        return try? JSONDecoder().decode(ExampleUser.self, from: data)
    }

    func save(_ user: ExampleUser) {
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(user).write(to: fileURL, options: [.atomic, .completeFileProtection])
        } catch {
            print("The account could not be saved: \(error.localizedDescription)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: fileURL)
    }
}
