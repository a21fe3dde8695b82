import ReceptionCore

/// A `LogRecordHandling` that keeps every line, so tests can assert what was logged (and that secrets were not).
public final class RecordingLogHandler: LogRecordHandling {
    private let lines = Locked<[LogRecord]>([])

    /// An empty recorder.
    public init() {}

    public func log(_ record: LogRecord) {
        lines.withLock { $0.append(record) }
    }

    /// Every line, in order.
    public var records: [LogRecord] { lines.withLock { $0 } }

    /// The messages logged at `level`.
    public func messages(at level: LogLevel) -> [String] { records.filter { $0.level == level }.map(\.message) }

    /// Whether any line contains `fragment` (for asserting a secret never reached the log).
    public func contains(_ fragment: String) -> Bool { records.contains { $0.message.contains(fragment) } }

    /// Forgets every line.
    public func clear() { lines.withLock { $0.removeAll() } }

    /// A logger that writes here at `level`.
    public func logger(level: LogLevel = .debug, category: String = "Test") -> ReceptionLogger {
        ReceptionLogger(handler: self, level: level, category: category)
    }
}
