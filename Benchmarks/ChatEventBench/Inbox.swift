import Conversation
import ReceptionCore

/// The snapshots the engine published since the benchmark last took them (an engine observer runs on the engine,
/// so this is not main-actor code).
final class Inbox: Sendable {
    private let snapshots = Locked<[ChatSnapshot]>([])

    /// The observer to register on the engine.
    func observer() -> @Sendable (ChatSnapshot) -> Void {
        { snapshot in self.snapshots.withLock { $0.append(snapshot) } }
    }

    /// The snapshots published since the last call, oldest first.
    func take() -> [ChatSnapshot] { snapshots.withLock { list in defer { list = [] }; return list } }

    /// The newest snapshot not taken yet.
    var newest: ChatSnapshot? { snapshots.withLock { $0.last } }
}
