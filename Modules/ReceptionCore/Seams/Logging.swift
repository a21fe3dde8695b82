import Foundation

/// How much the SDK logs (spec 7.22). Ordered: `off` < `error` < `info` < `debug`; a message is emitted when its
/// level is not above the configured one. The default is `info`.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible, CaseIdentity {
    /// Nothing is logged.
    case off = 0
    /// Only failures.
    case error = 1
    /// Failures and lifecycle milestones (the default).
    case info = 2
    /// Everything, including each request's outcome (codes and counts, never content).
    case debug = 3

    @_optimize(size) public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    @inline(never) @_optimize(size) public var description: String {
        switch self {
        case .off: "off"
        case .error: "error"
        case .info: "info"
        case .debug: "debug"
        }
    }
}

/// One log line. Messages must never contain tokens, secrets, identity claims, push tokens, user details, metadata
/// values, message text, image URLs or conversation content (spec 7.22); codes, statuses, counts and revisions are
/// fine.
public struct LogRecord: Sendable, Hashable {
    /// The level the line was logged at (never `off`).
    public let level: LogLevel
    /// The module or concern that logged it (`SecureStore`, `Transport`, …).
    public let category: String
    /// The text.
    public let message: String

    /// Makes a record.
    @inline(never) @_optimize(size) public init(level: LogLevel, category: String, message: String) {
        self.level = level
        self.category = category
        self.message = message
    }

    /// Hashes the message only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}

/// Receives log records (the seam under `Reception.logHandler`; named so it cannot clash with swift-log's
/// `LogHandler` in a host that imports both).
public protocol LogRecordHandling: Sendable {
    /// Handles one line that passed the level filter.
    func log(_ record: LogRecord)
}

/// Writes one text line per record, `[Reception] level category: message`, to a sink; by default standard error.
public struct ConsoleLogHandler: LogRecordHandling {
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error.
    @inline(never) @_optimize(size) public init() {
        self.init { line in
            var standardError = StandardErrorStream()
            print(line, to: &standardError)
        }
    }

    /// A handler writing each formatted line (without a newline) to `write`.
    @_optimize(size) public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    @inline(never) @_optimize(size) public func log(_ record: LogRecord) {
        write(Self.format(record))
    }

    /// The line for a record. Newlines in the message are escaped so one record is always one line.
    @inline(never) @_optimize(size) public static func format(_ record: LogRecord) -> String {
        "[Reception] \(record.level) \(text(of: record))"
    }

    /// `Category: message`, newlines escaped: what `Reception.logHandler` receives beside the level.
    @inline(never) @_optimize(size) public static func text(of record: LogRecord) -> String {
        "\(record.category): \(record.message.replacingOccurrences(of: "\n", with: "\\n"))"
    }
}

/// A handler that drops everything.
public struct SilentLogHandler: LogRecordHandling {
    /// Makes a silent handler.
    @_optimize(size) public init() {}
    @_optimize(size) public func log(_ record: LogRecord) {}
}

/// What modules log through: a handler, a level filter and a category. Messages are autoclosures, so a filtered
/// line costs nothing.
public struct ReceptionLogger: Sendable {
    /// Where lines go.
    @_optimize(size) public var handler: any LogRecordHandling { box.value.handler }
    /// The most detailed level emitted.
    @_optimize(size) public var level: LogLevel { box.value.level }
    /// The category stamped on every line.
    @_optimize(size) public var category: String { box.value.category }

    /// The parts, held once behind one reference (`ValueBox`): every store, client and engine keeps a logger and
    /// passes it on, and a one-reference value keeps each of those copies small (Docs/Footprint.md, "Size on iOS").
    private let box: ValueBox<Parts>

    private struct Parts: Sendable {
        let handler: any LogRecordHandling
        let level: LogLevel
        let category: String
    }

    /// Makes a logger.
    @inline(never) @_optimize(size)
    public init(handler: any LogRecordHandling = ConsoleLogHandler(), level: LogLevel = .info, category: String) {
        box = ValueBox(Parts(handler: handler, level: level, category: category))
    }

    /// The same handler and level under another category.
    @inline(never) @_optimize(size) public func with(category: String) -> ReceptionLogger {
        ReceptionLogger(handler: handler, level: level, category: category)
    }

    /// Logs at `level` if it passes the filter.
    @inline(never) @_optimize(size) public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard passes(level) else { return }
        write(level, message())
    }

    /// Whether a line at `level` is kept: the one filter `log` (before building its line) and `write` apply.
    @_optimize(size) private func passes(_ level: LogLevel) -> Bool { level != .off && level <= self.level }

    /// Logs a line the SDK built itself at `level` if it passes the filter. The SDK's modules call this rather than
    /// `error`, `info` and `debug`, whose message is an autoclosure: a closure, compiled at the host's `-O` whatever
    /// encloses it, about 110 bytes a line in the app. Built by the caller, the line is compiled for size with the
    /// rest of the function (Docs/Footprint.md). The SDK logs on events (a send, a failure, a poll), never per
    /// frame or row, so building a line the level then drops costs nothing anyone could notice.
    @inline(never) @_optimize(size) package func write(_ level: LogLevel, _ message: String) {
        guard passes(level) else { return }
        handler.log(LogRecord(level: level, category: category, message: message))
    }

    /// Logs a failure the host should know about.
    @_optimize(size) public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs a notable event.
    @_optimize(size) public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs detail for debugging an integration.
    @_optimize(size) public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    /// A logger that drops everything.
    public static let silent = ReceptionLogger(handler: SilentLogHandler(), level: .off, category: "")
}
