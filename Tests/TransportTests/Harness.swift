import Foundation
import ReceptionCore
import ReceptionTesting
import Transport

/// What the hooks saw.
final class HookLog: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A client over the scripted transport, an in-memory secure store and a manual clock.
struct Harness {
    static let appID = "app_AbCdEfGhIjKlMnOpQrStUv"
    static let scope = appID + "GEN1"
    let transport = ScriptedHTTPTransport()
    let store = InMemorySecureStore()
    let clock = ManualClock()
    let log = HookLog()
    let cooldowns: CooldownBook
    let client: ReceptionAPIClient

    init(started: Bool = true, registered: Bool = true, revision: Int = 0, root: String = "https://reception.test") {
        let log = self.log
        let clock = self.clock
        let savedBox = SavedCooldowns()
        cooldowns = CooldownBook(now: clock.now) { savedBox.set($0) }
        let endpoint = try! ServiceEndpoint(appID: Self.appID, root: URL(string: root)!)
        let tokenBox = TokenBox()
        self.tokenBox = tokenBox
        client = ReceptionAPIClient(
            .init(endpoint: endpoint, transport: transport, secureStore: store, scope: Self.scope, cooldowns: cooldowns,
                  clock: clock, random: FixedRandomSource(), logger: .silent),
            hooks: SessionHooks(
                chatRevision: { revision },
                hasStartedChat: { started },
                devicePayload: { () throws(ReceptionError) -> DevicePayload in
                    Harness.payload(identityToken: tokenBox.value)
                },
                deviceSynchronised: { payload, verified in
                    log.append("synchronised token=\(payload.identityToken ?? "-") verified=\(verified ?? "-")")
                },
                identityRejected: { error, token in
                    tokenBox.value = nil
                    log.append("rejected \(error.code) \(error.status) \(token)")
                },
                chatReset: { log.append("chatReset \($0)") },
                sessionRevoked: { log.append("sessionRevoked") },
                haltChanged: { log.append("halt \($0?.rawValue ?? "none")") }))
        if registered {
            let credentials = try! ReceptionJSON.encode(SessionCredentials(sessionSecret: "ss_secret", verifiedUserId: nil))
            try! store.write(credentials, for: .session(scope: Self.scope))
        }
    }

    let tokenBox: TokenBox

    static func payload(identityToken: String?) -> DevicePayload {
        DevicePayload(
            sdkVersion: "0.1.0", appVersion: "1.0", appBuild: "1", osVersion: "6.1", deviceModel: "x86_64",
            locale: "en_US", timezone: "UTC", language: "en", identityToken: identityToken)
    }

    /// Scripts a token refresh that hands out `token`.
    func scriptRefresh(_ token: String = "at_1") {
        transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"\#(token)"}"#))
    }
}

final class TokenBox: Sendable {
    private let state = Locked<String?>(nil)
    var value: String? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

final class SavedCooldowns: Sendable {
    private let state = Locked<[StoredCooldown]>([])
    func set(_ value: [StoredCooldown]) { state.withLock { $0 = value } }
    var value: [StoredCooldown] { state.withLock { $0 } }
}

let emptyHistory = #"{"conversation":null,"messages":[]}"#
let unreadBody = #"{"hasConversation":true,"unreadCount":2,"status":"OPEN","lastMessageAt":"2026-09-25T10:00:00Z","push":false,"unreadPolling":null}"#
