
/// Faults queued through the admin API for reliability tests: each matches requests by method and path and fires
/// for its next `count` matches.
final class FaultPlan: Sendable {
    /// What a fault does to a matching request.
    enum Action: Sendable, Equatable {
        /// Wait this many milliseconds, then answer normally.
        case delay(milliseconds: Int)
        /// Answer with this error instead of handling the request (nothing is committed).
        case fail(APIError)
        /// Handle and commit the request, then close the connection without an answer.
        case drop
    }

    struct Fault: Sendable, Equatable {
        var method: String?
        /// An exact path, or a prefix when it ends with `*`.
        var path: String
        var action: Action
        var remaining: Int

        func matches(method: String, path: String) -> Bool {
            // The admin API is the way to clear faults: a fault on `*` must not lock it out with delays or errors.
            if path.hasPrefix("/admin/") { return false }
            if let expected = self.method, expected != method { return false }
            if self.path.hasSuffix("*") { return path.hasPrefix(self.path.dropLast()) }
            return self.path == path
        }
    }

    private let faults = EmulatorLock<[Fault]>([])

    /// Queues a fault.
    func add(_ fault: Fault) { faults.withLock { $0.append(fault) } }

    /// Removes every queued fault.
    func clear() { faults.withLock { $0.removeAll() } }

    /// The queued faults, oldest first.
    var pending: [Fault] { faults.withLock { $0 } }

    /// The action of the oldest fault matching the request, spending one of its uses.
    func take(method: String, path: String) -> Action? {
        faults.withLock { faults in
            guard let index = faults.firstIndex(where: { $0.matches(method: method, path: path) }) else { return nil }
            let action = faults[index].action
            faults[index].remaining -= 1
            if faults[index].remaining <= 0 { faults.remove(at: index) }
            return action
        }
    }
}
