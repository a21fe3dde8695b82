import ReceptionCore

/// Records what a part handed out: the timer actions that ran and the reports it sent, in order.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    /// Everything recorded so far.
    var recorded: [Value] { values.withLock { $0 } }

    /// Records `value`.
    func record(_ value: Value) { values.withLock { $0.append(value) } }
}

extension Recorder where Value == String {
    /// A timer action that records `name` when it runs.
    func action(_ name: String) -> @Sendable () async -> Void { { [self] in record(name) } }
}

/// A task that runs until it is cancelled, standing in for a part's loop.
func loopUntilCancelled() -> Task<Void, Never> {
    Task { while !Task.isCancelled { await Task.yield() } }
}
