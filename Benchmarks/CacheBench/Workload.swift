import Foundation
import ReceptionCore

/// The data every contender works on, identical for all three so only the storage design differs.
enum Workload {
    static let scope = StorageScope(appID: "app_benchAAAAAAAAAAAAAAAAAAAAA", generation: "-g1")
    /// Spec 7.9 photos are at most 1 MiB; 300 KB is a typical prepared JPEG.
    static let photoSize = 300_000

    static func photo(_ seed: Int) -> Data {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<photoSize).map { _ in
            // xorshift: incompressible bytes, like JPEG data.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    static func confirmed(_ seq: Int64) -> StoredMessage {
        StoredMessage(
            id: "msg-\(seq)", seq: seq, sender: seq % 2 == 0 ? .agent : .user,
            text: "Reply number \(seq): thanks for reaching out, we are looking into your question right now.",
            createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seq)))
    }

    static func unsent(_ index: Int, photos: [Data]) -> StoredMessage {
        StoredMessage(
            id: "LOCAL-\(index)", sender: .user, text: "A message written offline with two photos (\(index)).",
            createdAt: Date(timeIntervalSinceReferenceDate: 900_000_000 + Double(index)),
            delivery: [.failed, .retryAfterTransientFailure], images: photos)
    }

    /// The confirmed copy of an outbox message: the service answered with attachments, so photos are dropped.
    static func confirmation(of message: StoredMessage, seq: Int64) -> StoredMessage {
        var confirmed = message
        confirmed.seq = seq
        confirmed.delivery = []
        confirmed.images = []
        confirmed.attachments = (0..<message.images.count).map {
            Attachment(id: "att-\(seq)-\($0)", url: "https://files.example/\(seq)/\($0)", contentType: "image/jpeg")
        }
        return confirmed
    }

    /// A full window with photos: 50 confirmed messages and two failed ones carrying two photos each.
    static func fullWindow(photos: [Data]) -> (confirmed: [StoredMessage], unsent: [StoredMessage]) {
        ((Int64(1)...50).map(confirmed), [unsent(0, photos: photos), unsent(1, photos: photos)])
    }
}

/// One way of storing the chat cache, driven by the same three operations.
protocol Contender {
    var name: String { get }
    func appendConfirmed(_ message: StoredMessage) throws
    func loadWindowCount() throws -> Int
    func enqueue(_ message: StoredMessage) throws
    func complete(_ id: String, with confirmed: StoredMessage) throws
}
