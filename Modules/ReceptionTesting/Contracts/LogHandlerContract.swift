import ReceptionCore

/// A log handler under test and a way to read back what it received, as records.
public struct LogHandlerFixture: Sendable, CustomStringConvertible {
    /// The implementation's name.
    public let name: String
    /// The handler.
    public let handler: any LogRecordHandling
    /// What the handler has emitted so far, parsed back into records.
    public let emitted: @Sendable () -> [LogRecord]

    /// Makes a fixture.
    public init(name: String, handler: any LogRecordHandling, emitted: @escaping @Sendable () -> [LogRecord]) {
        self.name = name
        self.handler = handler
        self.emitted = emitted
    }

    public var description: String { name }
}

/// The `LogRecordHandling` contract, as seen through a `ReceptionLogger`.
public enum LogHandlerContract {
    /// Every check.
    public static let checks: [ContractCheck<LogHandlerFixture>] = [
        ContractCheck("every line that passes the level filter arrives once, in order, intact") { fixture in
            let logger = ReceptionLogger(handler: fixture.handler, level: .info, category: "Contract")
            logger.info("first line")
            logger.debug("filtered out")
            logger.error("second line: status 409, code chat_reset")
            try require(fixture.emitted() == [
                LogRecord(level: .info, category: "Contract", message: "first line"),
                LogRecord(level: .error, category: "Contract", message: "second line: status 409, code chat_reset"),
            ], "got \(fixture.emitted())")
        },
        ContractCheck("a logger at level off emits nothing") { fixture in
            let logger = ReceptionLogger(handler: fixture.handler, level: .off, category: "Contract")
            logger.error("never")
            try require(fixture.emitted().isEmpty, "level off emitted \(fixture.emitted())")
        },
        ContractCheck("lines from concurrent loggers are each delivered whole") { fixture in
            let logger = ReceptionLogger(handler: fixture.handler, level: .debug, category: "Contract")
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<50 { group.addTask { logger.debug("line \(i)") } }
            }
            let messages = Set(fixture.emitted().map(\.message))
            try require(messages == Set((0..<50).map { "line \($0)" }), "lost or mixed lines")
        },
    ]
}
