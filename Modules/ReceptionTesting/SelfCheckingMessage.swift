import Foundation
import ReceptionCore

/// Outbox messages whose every byte follows from their index, so a test that kills a writer mid-write can tell an
/// intact row from a half-written one without knowing what the writer managed to do.
public enum SelfCheckingMessage {
    /// The message a writer stores as its `index`-th: text and photo sizes vary with the index, so rows span one
    /// page, several pages and overflow chains.
    public static func make(_ index: Int) -> StoredMessage {
        let photoCount = index % 3
        let size = 1_000 + (index % 7) * 37_000
        return StoredMessage(
            id: id(index), sender: .user, text: "row \(index) " + String(repeating: "é", count: index % 500),
            createdAt: Date(timeIntervalSinceReferenceDate: Double(index)),
            images: (0..<photoCount).map { photo in
                Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index &+ photo) })
            })
    }

    /// The local ID of the `index`-th message.
    public static func id(_ index: Int) -> String { "crash-\(index)" }

    /// The index of `message` if every field is exactly what `make` writes, else `nil`.
    public static func index(ofIntact message: StoredMessage) -> Int? {
        guard message.id.hasPrefix("crash-"), let index = Int(message.id.dropFirst("crash-".count)),
              message == make(index) else { return nil }
        return index
    }
}
