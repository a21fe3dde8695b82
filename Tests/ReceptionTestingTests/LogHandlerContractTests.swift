import ReceptionCore
import ReceptionTesting
import Testing

/// The console handler (through its line sink) and the recording fake pass the same contract.
@Suite("LogHandlerContractTests")
struct LogHandlerContractTests {
    final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Parses `[Reception] level category: message` back into a record.
    static func parse(_ line: String) -> LogRecord? {
        guard line.hasPrefix("[Reception] ") else { return nil }
        let rest = line.dropFirst("[Reception] ".count)
        guard let space = rest.firstIndex(of: " "), let colon = rest.range(of: ": "),
              let level = LogLevel.allCases.first(where: { $0.description == rest[..<space] })
        else { return nil }
        let category = String(rest[rest.index(after: space)..<colon.lowerBound])
        return LogRecord(level: level, category: category, message: String(rest[colon.upperBound...]))
    }

    struct Implementation: Sendable, CustomStringConvertible {
        let description: String
        let make: @Sendable () -> LogHandlerFixture
    }

    static let implementations = [
        Implementation(description: "ConsoleLogHandler") {
            let lines = Lines()
            return LogHandlerFixture(name: "ConsoleLogHandler", handler: ConsoleLogHandler(write: lines.append)) {
                lines.all.compactMap(parse)
            }
        },
        Implementation(description: "RecordingLogHandler") {
            let recorder = RecordingLogHandler()
            return LogHandlerFixture(name: "RecordingLogHandler", handler: recorder) { recorder.records }
        },
    ]

    @Test(arguments: implementations, LogHandlerContract.checks)
    func contract(implementation: Implementation, check: ContractCheck<LogHandlerFixture>) async throws {
        try await check.run(implementation.make())
    }

    @Test func oneRecordIsAlwaysOneLine() {
        let line = ConsoleLogHandler.format(LogRecord(level: .error, category: "X", message: "a\nb"))
        #expect(line == "[Reception] error X: a\\nb")
    }
}
