/// What a line of the event stream means to the client (spec 3.12). Everything else is ignored.
public enum StreamSignal: Sendable, Hashable {
    /// `data: changed`: fetch newer messages now.
    case changed
    /// `: ping`: keep-alive; fetch once if a minute passed since the last stream-triggered fetch.
    case ping
    /// `data: typing`: an agent is typing.
    case typing
    /// `data: idle`: the agent stopped typing.
    case idle
    /// `data: reconnect`: the server closes this stream; reopen at once, without backoff.
    case reconnect

    /// The signal of one exact line, without its line ending.
    @inline(never) @_optimize(size) public init?(line: Substring) {
        switch line {
        case "data: changed": self = .changed
        case ": ping": self = .ping
        case "data: typing": self = .typing
        case "data: idle": self = .idle
        case "data: reconnect": self = .reconnect
        default: return nil
        }
    }
}
