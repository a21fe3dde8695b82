import Conversation
import Foundation
import PushRouting
import ReceptionCore
import ReceptionKit

/// The host app: configures ReceptionKit, signs the person in, draws the chat, and turns typed lines into SDK calls,
/// as an iOS app's account coordinator and chat screen would (Docs/HostApp.md).
@MainActor
final class ChatApp {
    let options: ChatOptions
    let reception = Reception.shared
    let terminal: Terminal
    private var notes: [String] = []
    private var running = true

    init(options: ChatOptions) {
        self.options = options
        terminal = Terminal(fullScreen: !(options.plain ?? !Terminal.isTerminal()))
    }

    /// Parses the flags, runs the app until `/quit` or the end of input, and returns the exit status.
    static func run(arguments: [String]) async -> Int32 {
        let options: ChatOptions
        switch ChatOptions.parse(arguments, environment: ProcessInfo.processInfo.environment) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            FileHandle.standardError.write(Data((error.message + "\n").utf8))
            return error.status
        }
        try? FileManager.default.createDirectory(atPath: options.dataDirectory, withIntermediateDirectories: true)
        Reception.logHandler = LogFile(path: options.dataDirectory + "/reception-chat.log").handler
        let app = ChatApp(options: options)
        return await app.main()
    }

    private func main() async -> Int32 {
        guard configure() else {
            terminal.finish()
            FileHandle.standardError.write(Data("reception-chat: the App ID or service was refused (see reception-chat.log in the data folder)\n".utf8))
            return 2
        }
        // The launch reads the stored chat off the main actor; the commands below need its chat model.
        await reception.waitUntilReady()
        await signIn()
        reception.openChat()
        let renderer = Task { @MainActor [weak self] in
            while let self, self.running, !Task.isCancelled {
                self.render()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        for await line in StandardInputLines.stream() {
            await handle(ChatCommand(line: line))
            render()
            if !running { break }
        }
        running = false
        renderer.cancel()
        render()
        terminal.finish()
        return 0
    }

    // MARK: Setup

    private func configure() -> Bool {
        guard let root = URL(string: options.service) else { return false }
        let directory = URL(fileURLWithPath: options.dataDirectory, isDirectory: true)
        reception.onEvent = { [weak self] event in self?.handleEvent(event) }
        reception.configure(
            appId: options.appID, configuration: ReceptionConfiguration(serviceRoot: root, dataDirectory: directory))
        guard reception.isConfigured else { return false }
        if let language = options.language { reception.languageOverride = language }
        if let hex = options.pushToken {
            if let token = Data(hexString: hex) {
                reception.setPushToken(token, environment: .sandbox)
            } else {
                note("--push-token is not hex; ignored")
            }
        }
        return true
    }

    /// Signs the person in: a verified token from the token server when there is one, a label otherwise.
    private func signIn() async {
        if !options.metadata.isEmpty { reception.setMetadata(options.metadata) }
        guard let user = options.user, !user.isEmpty else { return }
        guard let server = options.tokenServer, let root = URL(string: server) else {
            reception.identify(userId: user, name: user, email: options.email)
            note("signed in as \(user) (unverified label)")
            return
        }
        do {
            let token = try await TokenServerClient(root: root).token(for: user)
            reception.identify(token: token)
            note("signed in as \(user) with a verified token")
        } catch {
            note("sign-in failed: \(error); continuing anonymously")
        }
    }

    // MARK: Commands

    func handle(_ command: ChatCommand) async {
        switch command {
        case .empty: return
        case .send(let text): await send(text: text, photo: nil)
        case .photo(let path, let text): await send(text: text, photo: path)
        case .open: reception.openChat()
        case .close: reception.closeChat()
        case .retry(let number):
            guard let message = message(number) else { return }
            await reception.chat?.retry(message.id)
        case .cancel(let number):
            guard let message = message(number) else { return }
            await reception.chat?.cancelAutomaticResend(message.id)
        case .tap(let number):
            // Seed 001: the card's button; the SDK records the click for the team's receipt (sent when it can be).
            guard let message = message(number) else { return }
            if reception.tapCard(message) {
                note("card \(number): " + (message.kind == .review ? "opened \(message.reviewUrl ?? "")" : "offer opened"))
            } else {
                note("card \(number): nothing to open")
            }
        case .push(let json): forwardPush(json)
        case .background: reception.appDidEnterBackground(); note("app in background")
        case .foreground: reception.appDidBecomeActive(); note("app active")
        case .logout:
            reception.logout()
            note("logged out: the local chat is gone")
        case .delete:
            note("deleting support data…")
            do {
                try await reception.deleteData()
                note("support data deleted")
            } catch {
                let code = (error as? ReceptionError)?.code ?? "unknown"
                note("deletion failed (\(code)); the session is kept: /delete again to retry")
            }
        case .language(let tag):
            reception.languageOverride = tag
            note("chat language \(reception.chatLanguage)\(reception.chatIsRightToLeft ? ", right to left" : "")")
        case .help: for line in ChatCommand.helpText.split(separator: "\n") { note(String(line)) }
        case .quit: running = false
        case .unknown(let line): note("unknown command: \(line) (/help lists them)")
        }
    }

    private func send(text: String, photo path: String?) async {
        guard let chat = reception.chat else { note("the chat is not ready"); return }
        if !reception.isChatOpen { reception.openChat() }
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                note("cannot read the photo \(path)")
                return
            }
            await chat.addPhoto(data)
            await chat.refresh()
            if chat.composer.notices.contains(.photoCouldNotLoad) {
                note("the photo \(path) could not be loaded")
            }
        }
        chat.setDraft(text)
        await chat.send()
    }

    private func message(_ number: Int) -> ChatMessage? {
        guard let messages = reception.chat?.messages, number >= 1, number <= messages.count else {
            note("no message \(number)")
            return nil
        }
        return messages[number - 1]
    }

    /// What the OS would hand the app delegate when the person taps a notification.
    private func forwardPush(_ json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            note("push: not a JSON object")
            return
        }
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in object { userInfo[key] = value }
        let alert = ((object["aps"] as? [String: Any])?["alert"] as? [String: Any]) ?? [:]
        let title = alert["title"] as? String ?? ""
        let body = alert["body"] as? String ?? ""
        let handled = reception.handlePushNotification(userInfo: userInfo)
        note("push \"\(title)\": \"\(body)\" — \(handled ? "Reception's; chat opened" : "not Reception's; ignored")")
    }

    private func handleEvent(_ event: ReceptionEvent) {
        switch event {
        case .identityRejected(let error): note("identity rejected: \(error.code)")
        case .dataDeleted: note("event: data deleted")
        default: break
        }
    }

    // MARK: Screen

    private func note(_ text: String) {
        notes.append(text)
        if notes.count > 6 { notes.removeFirst(notes.count - 6) }
        render()
    }

    private func render() {
        let who = switch reception.identityState {
        case .anonymous: "anonymous"
        case .labelled(let id): "\(id) (unverified)"
        case .verified(let id): "\(id) (verified)"
        }
        let chat = reception.chat
        let look = reception.chatAppearance
        let texts = reception.chatTexts
        let messages = chat?.messages ?? []
        let presentation = ChatPresentation(
            messages: messages, composer: chat?.composer ?? ChatModel.idleComposer, banner: chat?.banner ?? .hidden,
            agentTyping: chat?.agentTyping ?? false, team: chat?.team ?? [], texts: texts, appearance: look,
            now: Date(), availablePaywalls: reception.availablePaywallIDs)
        let screen = Screen(
            chat: presentation,
            authorNames: look.showsTeamNames
                ? Dictionary((chat?.team ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { _, last in last }) : [:],
            authorIDs: Dictionary(messages.compactMap { message in message.authorId.map { (message.id, $0) } },
                                  uniquingKeysWith: { _, last in last }),
            who: who, chatOpen: reception.isChatOpen, unreadCount: reception.unreadCount, hasChat: chat != nil,
            notes: notes, texts: texts, hyperlinks: terminal.fullScreen,
            width: Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").flatMap { $0 > 20 ? $0 : nil } ?? 80)
        terminal.show(screen.lines)
    }
}
