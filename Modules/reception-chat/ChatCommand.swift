import Foundation

/// One line typed by the person: a slash command or text to send.
enum ChatCommand: Equatable, Sendable {
    case send(String)
    case photo(path: String, text: String)
    case open
    case close
    case retry(Int)
    case cancel(Int)
    case tap(Int)
    case push(json: String)
    case background
    case foreground
    case logout
    case delete
    case help
    case language(String?)
    case quit
    case empty
    case unknown(String)

    static let helpText = """
        /open  /close            show or hide the chat (the unread count shows while it is hidden)
        /photo PATH [text]       send a photo (prepared by the JPEG pipeline) with optional text
        /retry N  /cancel N      retry message N, or cancel its automatic resend
        /tap N                   tap message N's card button (a review opens its link; an offer calls onPaywall)
        /push JSON               forward a push payload to handlePushNotification (as the OS would)
        /background /foreground  the app lifecycle
        /logout  /delete         sign out, or delete this device's support data
        /language TAG            show the chat in language TAG (e.g. de, ar); /language alone: the host's
        /quit                    leave; any other line is sent as a message
        """

    /// Parses one line. Text starting with `//` sends the text with one slash removed.
    init(line raw: String) {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { self = .empty; return }
        guard line.hasPrefix("/") else { self = .send(line); return }
        if line.hasPrefix("//") { self = .send(String(line.dropFirst())); return }
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let name = parts.first.map(String.init) ?? ""
        let rest = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        switch name {
        case "/open": self = .open
        case "/close": self = .close
        case "/retry": self = Int(rest).map(ChatCommand.retry) ?? .unknown(line)
        case "/cancel": self = Int(rest).map(ChatCommand.cancel) ?? .unknown(line)
        case "/tap": self = Int(rest).map(ChatCommand.tap) ?? .unknown(line)
        case "/push": self = rest.isEmpty ? .unknown(line) : .push(json: rest)
        case "/background": self = .background
        case "/foreground": self = .foreground
        case "/logout": self = .logout
        case "/delete": self = .delete
        case "/help": self = .help
        case "/language": self = .language(rest.isEmpty ? nil : rest)
        case "/quit", "/exit": self = .quit
        case "/photo":
            guard !rest.isEmpty else { self = .unknown(line); return }
            let pieces = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            self = .photo(path: String(pieces[0]), text: pieces.count > 1 ? String(pieces[1]) : "")
        default: self = .unknown(line)
        }
    }
}
