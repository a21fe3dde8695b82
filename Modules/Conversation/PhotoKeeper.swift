import Foundation
import ReceptionCore

/// The engine's way into the session's photo cache (issue 39): every read and write of the cache runs here, in
/// order on a serial dispatch queue of its own, never on the engine's executor nor on a thread of Swift's
/// cooperative pool. A cache read is a file read and a SHA-256 of up to a few MB, a write is a file and an index
/// written and synced; on the engine they would hold up sends, events and the screen's snapshot for as long, and
/// on the cooperative pool (two threads on a two-core device) they would hold up every other task.
///
/// A chat reset removes the cache on the engine at once (`clear()`), and bumps the keeper's epoch first, so a
/// write of the chat before (a download that ended as the reset came, uploaded photos still queued) finds the
/// epoch changed under the gate's lock and keeps nothing.
final class PhotoKeeper: Sendable {
    /// One photo to keep, for the epoch it was made in.
    private struct Write: Sendable {
        var attachmentID: String
        var data: Data
        var epoch: Int
    }

    private let gate: StoreGate<any PhotoCaching>
    /// Where every read and write runs, one at a time.
    private let queue = DispatchQueue(label: "ReceptionKit.PhotoKeeper", qos: .utility)
    /// Bumped by `clear()`; a write made for an earlier epoch keeps nothing.
    private let epochs = Locked(0)
    /// Writes handed over by a caller that cannot wait (`keepLater`), not yet made: taken in order before any
    /// read, so a photo just handed over is never a miss.
    private let pending = Locked<[Write]>([])

    @_optimize(size) init(_ gate: StoreGate<any PhotoCaching>) {
        self.gate = gate
    }

    /// The current epoch, to hand to `keepLater(_:epoch:)`.
    @_optimize(size) var epoch: Int { epochs.withLock { $0 } }

    /// The cached bytes of `attachmentID`, after every pending write; `nil` on a miss or once the cache is closed.
    @inline(never) @_optimize(size) func photo(for attachmentID: String) async -> Data? {
        await onQueue {
            self.writePending()
            return (try? self.gate.read(orIfClosed: Data?.none) { $0.photo(for: attachmentID) }) ?? nil
        }
    }

    /// Keeps `data` for `attachmentID` if no `clear()` came since `epoch` and the cache is open.

    /// Keeps `data` for `attachmentID` if no `clear()` came since `epoch` and the cache is open; returns once written.
    @_optimize(size) func keep(_ data: Data, for attachmentID: String, epoch: Int) async {
        keepLater([(attachmentID, data)], epoch: epoch)
        await settled()
    }

    /// Hands over the writes of `photos` (ID and bytes) made in `epoch`, for a caller that need not wait (a
    /// download, the merge of a confirmation): they are made on the queue soon, and always before its next read.
    @inline(never) @_optimize(size) func keepLater(_ photos: [(attachmentID: String, data: Data)], epoch: Int) {
        guard !photos.isEmpty else { return }
        pending.withLock { queue in
            queue += photos.map { Write(attachmentID: $0.attachmentID, data: $0.data, epoch: epoch) }
        }
        queue.async { self.writePending() }
    }

    /// Makes every pending write now (a test, before it reopens the cache).
    @_optimize(size) func settled() async {
        await onQueue { self.writePending() }
    }

    /// Spec 7.12, seed 000 "Reset support": removes every kept photo now and refuses the writes of the chat before.
    /// Runs on the caller (the engine's reset), which must not go on while the cache still holds them.
    @inline(never) @_optimize(size) func clear() {
        _ = try? gate.write { cache in
            epochs.withLock { $0 += 1 }
            cache.removeAll()
        }
    }

    /// Runs `body` on the queue and gives its result back to the awaiting task.
    @inline(never) @_optimize(size) private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    @inline(never) @_optimize(size) private func writePending() {
        let queue = pending.withLock { queue -> [Write] in
            defer { queue = [] }
            return queue
        }
        if !queue.isEmpty { write(queue) }
    }

    @inline(never) @_optimize(size) private func write(_ writes: [Write]) {
        _ = try? gate.write { cache in
            let current = epochs.withLock { $0 }
            for write in writes where write.epoch == current { cache.store(write.data, for: write.attachmentID) }
        }
    }
}
