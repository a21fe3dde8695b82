import Foundation

/// The command-line flags of `reception-chat`.
struct ChatOptions: Sendable, Equatable {
    var service = "http://127.0.0.1:8080"
    var appID = ""
    var dataDirectory = FileManager.default.currentDirectoryPath + "/reception-chat-data"
    var user: String?
    var tokenServer: String?
    var pushToken: String?
    /// `--email`: the email label passed with `--user` (unverified sign-in only; a token carries its own).
    var email: String?
    /// `--metadata KEY=VALUE` (repeatable): the custom fields passed to `setMetadata` at start.
    var metadata: [String: String] = [:]
    /// `nil`: ANSI full screen when standard output is a terminal, plain lines otherwise.
    var plain: Bool?
    /// `--language TAG`: `Reception.languageOverride`, the chat's and the device's language.
    var language: String?

    static let usage = """
        usage: reception-chat --app-id ID [--service URL] [--data DIR] [--user NAME] [--token-server URL]
                              [--push-token HEX] [--email ADDRESS] [--metadata KEY=VALUE]... [--language TAG]
                              [--plain]
          --service        the service root (default http://127.0.0.1:8080, the emulator)
          --app-id         the App ID (app_ + 22 letters and digits); also RECEPTION_APP_ID
          --data           where the SDK keeps its files (default ./reception-chat-data)
          --user           sign in as NAME: with --token-server a verified token is fetched for NAME,
                           without it NAME is passed as an unverified label
          --token-server   the host backend that mints identity tokens (GET /token?user=NAME)
          --push-token     a hex APNs device token to register (sandbox), so replies produce pushes
          --email          the email label passed with --user when it signs in without a token
          --metadata       a custom field KEY=VALUE for setMetadata (repeat for more); the team sees it
          --language       the chat's language (BCP 47, e.g. de, pt-PT, ar), instead of the system's
          --plain          plain lines instead of the full-screen view, even on a terminal
        commands: see /help inside the app
        """

    /// Parses `arguments`; environment variables fill what the flags leave out.
    static func parse(_ arguments: [String], environment: [String: String]) -> Result<ChatOptions, ChatOptionsError> {
        var options = ChatOptions()
        if let value = environment["RECEPTION_SERVICE"], !value.isEmpty { options.service = value }
        if let value = environment["RECEPTION_APP_ID"], !value.isEmpty { options.appID = value }
        if let value = environment["RECEPTION_TOKEN_SERVER"], !value.isEmpty { options.tokenServer = value }
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            switch flag {
            case "--help", "-h": return .failure(ChatOptionsError(message: usage, status: 0))
            case "--plain": options.plain = true; continue
            default: break
            }
            guard let value = remaining.popFirst() else {
                return .failure(ChatOptionsError(message: "\(flag) needs a value\n\(usage)", status: 2))
            }
            switch flag {
            case "--service": options.service = value
            case "--app-id": options.appID = value
            case "--data": options.dataDirectory = value
            case "--user": options.user = value
            case "--token-server": options.tokenServer = value
            case "--push-token": options.pushToken = value
            case "--email": options.email = value
            case "--language": options.language = value
            case "--metadata":
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    return .failure(ChatOptionsError(message: "--metadata needs KEY=VALUE", status: 2))
                }
                options.metadata[String(value[..<equals])] = String(value[value.index(after: equals)...])
            default: return .failure(ChatOptionsError(message: "unknown option \(flag)\n\(usage)", status: 2))
            }
        }
        guard !options.appID.isEmpty else {
            return .failure(ChatOptionsError(message: "--app-id is required\n\(usage)", status: 2))
        }
        guard let url = URL(string: options.service), url.scheme == "http" || url.scheme == "https" else {
            return .failure(ChatOptionsError(message: "--service needs an http or https URL", status: 2))
        }
        return .success(options)
    }
}

/// A command-line mistake (or `--help`), with what to print and the exit status.
struct ChatOptionsError: Error, Equatable {
    var message: String
    var status: Int32
}
