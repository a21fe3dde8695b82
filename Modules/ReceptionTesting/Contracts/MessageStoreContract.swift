import Foundation
import ReceptionCore

/// What a `MessageStoring` implementation is tested through.
public struct MessageStoreFixture: Sendable, CustomStringConvertible {
    /// The implementation's name, for test output.
    public let name: String
    /// Opens the store for a scope over the fixture's storage; every call is a relaunch.
    public let open: @Sendable (StorageScope) throws -> any MessageStoring
    /// Makes later writes through `store` fail as on a full disk, or `nil` when the implementation cannot.
    public let makeWritesFail: (@Sendable (any MessageStoring) throws -> Void)?

    /// Makes a fixture.
    public init(
        name: String, open: @escaping @Sendable (StorageScope) throws -> any MessageStoring,
        makeWritesFail: (@Sendable (any MessageStoring) throws -> Void)?
    ) {
        self.name = name
        self.open = open
        self.makeWritesFail = makeWritesFail
    }

    public var description: String { name }

    /// The in-memory fake over fresh storage.
    public static func inMemory() -> MessageStoreFixture {
        let first = Locked<InMemoryMessageStore?>(nil)
        return MessageStoreFixture(
            name: "InMemoryMessageStore",
            open: { scope in
                first.withLock { existing in
                    if let existing { return existing.reopened(scope: scope) }
                    let store = InMemoryMessageStore(scope: scope)
                    existing = store
                    return store
                }
            },
            makeWritesFail: { store in (store as? InMemoryMessageStore)?.writeFailure = .storageFull })
    }
}

/// The `MessageStoring` contract (spec 7.10, 7.12, 7.15, 7.17; Docs/MessageCache.md), one check per rule.
public enum MessageStoreContract {
    /// The scope most checks use.
    public static let scope = StorageScope(appID: "app_contractAAAAAAAAAAAAAAAAAA", generation: "-gen1")
    static let nextScope = StorageScope(appID: scope.appID, generation: "-gen2")
    static let otherApp = StorageScope(appID: "app_otherBBBBBBBBBBBBBBBBBBBBB", generation: "-gen1")

    /// A time `seconds` after a fixed origin, so dates compare exactly.
    static func time(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: 800_000_000 + seconds) }

    /// Distinct bytes per photo, so a mix-up between photos is visible.
    public static func photo(_ index: Int, size: Int = 2048) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7) })
    }

    /// An unsent message of this person's.
    public static func unsent(_ id: String, at seconds: Double = 0, photos: Int = 0) -> StoredMessage {
        StoredMessage(
            id: id, sender: .user, text: "unsent \(id)", createdAt: time(seconds),
            images: (0..<photos).map { photo($0) })
    }

    /// A confirmed message from the service.
    public static func confirmed(_ seq: Int64, id: String? = nil, at seconds: Double? = nil) -> StoredMessage {
        StoredMessage(
            id: id ?? "server-\(seq)", seq: seq, sender: .agent, text: "reply \(seq)",
            createdAt: time(seconds ?? Double(seq)))
    }

    /// Every check, for `@Test(arguments:)`.
    public static let checks: [ContractCheck<MessageStoreFixture>] =
        windowChecks + outboxChecks + sessionChecks + teamChecks + scopeChecks

    static let teamChecks: [ContractCheck<MessageStoreFixture>] = [
        ContractCheck("team profiles read back in order after reopening, photos included (spec 7.17)") { fixture in
            let profiles = [
                TeamProfile(id: "tm_2", name: "Zoë 👩‍💻", photoKey: "ph_2", photo: photo(2, size: 300_000)),
                TeamProfile(id: "tm_1", name: "Anna", photoKey: "https://x/p?sig=1", photo: nil),
                TeamProfile(id: "tm_3", name: "", photoKey: nil, photo: nil),
            ]
            try fixture.open(scope).saveTeamProfiles(profiles)
            try require(try fixture.open(scope).teamProfiles() == profiles, "profiles differ after reopening")
            try fixture.open(scope).saveTeamProfiles([profiles[1]])
            try require(try fixture.open(scope).teamProfiles() == [profiles[1]], "a save does not replace the set")
            try fixture.open(scope).saveTeamProfiles([profiles[0], profiles[0]])
            try require(try fixture.open(scope).teamProfiles() == [profiles[0]], "a duplicate ID is stored twice")
        },
        ContractCheck("a chat reset and a rotation clear the team profiles; other scopes keep theirs") { fixture in
            let profile = TeamProfile(id: "tm_1", name: "Anna", photoKey: "ph", photo: photo(1))
            try fixture.open(otherApp).saveTeamProfiles([profile])
            let store = try fixture.open(scope)
            try store.saveTeamProfiles([profile])
            try store.resetChat(revision: 1)
            try require(try fixture.open(scope).teamProfiles().isEmpty, "a chat reset kept the team")
            try store.saveTeamProfiles([profile])
            try store.rotate(to: nextScope)
            try require(try fixture.open(nextScope).teamProfiles().isEmpty, "the team survived a rotation")
            try require(try fixture.open(scope).teamProfiles().isEmpty, "the old scope's team is readable")
            try require(try fixture.open(otherApp).teamProfiles() == [profile], "another App ID lost its team")
        },
    ]

    static let windowChecks: [ContractCheck<MessageStoreFixture>] = [
        ContractCheck("a new scope is empty") { fixture in
            let store = try fixture.open(scope)
            try require(try store.loadWindow().isEmpty, "window not empty")
            try require(try store.unsentMessages().isEmpty, "outbox not empty")
            try require(try store.draft() == "", "draft not empty")
            try require(try store.sessionState() == SessionState(), "session state not fresh")
        },
        ContractCheck("every field of a message reads back after reopening, photos included") { fixture in
            let message = StoredMessage(
                id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", sender: .user,
                text: "nul\u{0}inside, emoji 👩‍👩‍👧, replacement \u{FFFD}", kind: .paywall,
                reviewUrl: "https://example.com/r", paywallId: "pro", paywallTitle: "Pro", buttonLabel: "Open",
                authorId: "tm_1", actionClickedAt: time(1.25), createdAt: time(0.1),
                delivery: [.failed, .retryAfterTransientFailure],
                attachments: [Attachment(id: "att_1", url: "https://x/1", contentType: "image/jpeg", width: 3,
                                         height: 4)],
                images: [photo(0), photo(1), Data()], attachmentIds: ["att_1"], expectedImageCount: 4)
            try fixture.open(scope).enqueue(message)
            let read = try fixture.open(scope).loadWindow()
            try require(read == [message], "read back \(read.map(\.text)) differs from what was written")
        },
        ContractCheck("the window keeps every unsent message and the last 50 confirmed (spec 7.17)") { fixture in
            let store = try fixture.open(scope)
            for index in 0..<3 { try store.enqueue(unsent("u\(index)", at: Double(index), photos: 1)) }
            for seq in Int64(1)...40 { try store.save([confirmed(seq)]) }
            try store.save((Int64(41)...60).map { confirmed($0) })
            let window = try fixture.open(scope).loadWindow()
            let seqs = window.compactMap(\.seq)
            try require(seqs == Array(11...60), "confirmed kept: \(seqs.first ?? -1)…\(seqs.last ?? -1)")
            try require(window.filter { !$0.isConfirmed }.map(\.id) == ["u0", "u1", "u2"], "unsent trimmed")
        },
        ContractCheck("saving a known ID replaces that message in place") { fixture in
            let store = try fixture.open(scope)
            try store.save([confirmed(5, id: "local-1")])
            var changed = confirmed(5, id: "local-1")
            changed.text = "edited by merge"
            try store.save([changed])
            let window = try fixture.open(scope).loadWindow()
            try require(window == [changed], "expected one replaced message, got \(window.map(\.text))")
        },
        ContractCheck("removing confirmed messages outside a window keeps the window and every unsent one (spec 3.6)") {
            fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("u0", at: 1, photos: 1))
            var withPhoto = confirmed(3)
            withPhoto.images = [photo(3)]
            try store.save([confirmed(1), confirmed(2), withPhoto, confirmed(4)])
            try store.removeConfirmed(notIn: [2, 4, 99])
            let window = try fixture.open(scope).loadWindow()
            try require(window.compactMap(\.seq) == [2, 4], "kept \(window.compactMap(\.seq))")
            try require(window.filter { !$0.isConfirmed }.map(\.id) == ["u0"], "an unsent message was removed")
            try store.removeConfirmed(notIn: [])
            let empty = try fixture.open(scope).loadWindow()
            try require(empty.map(\.id) == ["u0"] && empty[0].images.count == 1, "left \(empty.map(\.id))")
        },
        ContractCheck("unsent messages sit among confirmed ones by time (spec 7.10)") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("late", at: 50))
            try store.enqueue(unsent("middle", at: 20))
            try store.save([confirmed(1, at: 10), confirmed(2, at: 30)])
            let ids = try store.loadWindow().map(\.id)
            try require(ids == ["server-1", "middle", "server-2", "late"], "order \(ids)")
        },
    ]

    static let outboxChecks: [ContractCheck<MessageStoreFixture>] = [
        ContractCheck("completing replaces the outbox row, keeps the local ID and drops the photos") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("local-2", photos: 2))
            var server = confirmed(7, id: "srv-7")
            server.sender = .user
            server.attachments = [Attachment(id: "a", url: "https://x/a", contentType: "image/jpeg")]
            try store.complete("local-2", with: server)
            let reopened = try fixture.open(scope)
            let window = try reopened.loadWindow()
            try require(window.count == 1 && window[0].id == "local-2" && window[0].seq == 7, "not merged in place")
            try require(window[0].images.isEmpty && window[0].attachments.count == 1, "photos kept or attachments lost")
            try require(try reopened.unsentMessages().isEmpty, "still in the outbox")
        },
        ContractCheck("completing keeps the photos when the confirmed copy still carries them") { fixture in
            let store = try fixture.open(scope)
            let message = unsent("local-3", photos: 2)
            try store.enqueue(message)
            var server = confirmed(8)
            server.images = message.images
            try store.complete("local-3", with: server)
            let images = try fixture.open(scope).loadWindow().first?.images
            try require(images == message.images, "photos changed")
        },
        ContractCheck("removing an unsent message drops it and its photos; confirmed and unknown IDs stay") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("gone", at: 1, photos: 2))
            try store.enqueue(unsent("kept", at: 2, photos: 1))
            try store.save([confirmed(4, id: "server-4")])
            try store.removeUnsent("gone")
            try store.removeUnsent("server-4")
            try store.removeUnsent("never-enqueued")
            let reopened = try fixture.open(scope)
            try require(try reopened.unsentMessages() == [unsent("kept", at: 2, photos: 1)], "outbox wrong")
            try require(try reopened.loadWindow().compactMap(\.seq) == [4], "a confirmed message was removed")
        },
        ContractCheck("completing an unknown ID changes nothing") { fixture in
            let store = try fixture.open(scope)
            try store.complete("never-enqueued", with: confirmed(9))
            try require(try store.loadWindow().isEmpty, "an unknown message was stored")
        },
        ContractCheck("delivery flags and attachment IDs persist") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("local-4", photos: 3))
            try store.setDelivery([.failed, .awaitsManualRetry, .retryAfterLimitRelease], of: "local-4")
            try store.appendAttachmentID("att_a", to: "local-4")
            try store.appendAttachmentID("att_b", to: "local-4")
            var read = try fixture.open(scope).unsentMessages()
            try require(read.first?.delivery == [.failed, .awaitsManualRetry, .retryAfterLimitRelease], "flags lost")
            try require(read.first?.attachmentIds == ["att_a", "att_b"], "attachment IDs lost")
            try store.clearAttachmentIDs(of: "local-4")
            read = try fixture.open(scope).unsentMessages()
            try require(read.first?.attachmentIds == [], "attachment IDs not cleared")
            try require(read.first?.images.count == 3, "photos lost")
        },
        ContractCheck("a confirmed message or a duplicate ID is refused with invalid_input") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("local-5"))
            for refused in [confirmed(3), unsent("local-5", at: 9)] {
                do {
                    try store.enqueue(refused)
                    throw ContractFailure("enqueue of \(refused.id) did not throw")
                } catch let error as ReceptionError {
                    try require(error.code == ReceptionError.Code.invalidInput, "wrong error \(error)")
                }
            }
            try require(try store.unsentMessages() == [unsent("local-5")], "outbox changed")
        },
        ContractCheck("a failed write throws a storage error and keeps everything stored before") { fixture in
            guard let makeWritesFail = fixture.makeWritesFail else { return }
            let store = try fixture.open(scope)
            try store.enqueue(unsent("kept", photos: 1))
            try store.setDraft("draft kept")
            try makeWritesFail(store)
            do {
                var big = unsent("refused")
                big.images = [photo(0, size: 1 << 20), photo(1, size: 1 << 20)]
                try store.enqueue(big)
                throw ContractFailure("a write to a full store did not throw")
            } catch let error as ReceptionError {
                let codes = [ReceptionError.Code.storageFull, ReceptionError.Code.storageUnavailable]
                try require(codes.contains(ReceptionError.Code(error.code)), "wrong error \(error)")
            }
            let reopened = try fixture.open(scope)
            try require(try reopened.unsentMessages() == [unsent("kept", photos: 1)], "stored outbox changed")
            try require(try reopened.draft() == "draft kept", "draft lost")
        },
        ContractCheck("concurrent writers each land whole") { fixture in
            let store = try fixture.open(scope)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { try store.enqueue(unsent("c\(index)", at: Double(index), photos: 2)) }
                }
                try await group.waitForAll()
            }
            let read = try fixture.open(scope).unsentMessages().sorted { $0.id < $1.id }
            try require(read == (0..<8).map { unsent("c\($0)", at: Double($0), photos: 2) }, "a write was lost")
        },
    ]

    static let sessionChecks: [ContractCheck<MessageStoreFixture>] = [
        ContractCheck("the draft reads back, and an empty draft removes it") { fixture in
            let store = try fixture.open(scope)
            try store.setDraft("half a thought\u{0}…")
            try require(try fixture.open(scope).draft() == "half a thought\u{0}…", "draft lost")
            try store.setDraft("")
            try require(try fixture.open(scope).draft() == "", "draft not removed")
        },
        ContractCheck("session state updates persist and compose") { fixture in
            let store = try fixture.open(scope)
            let cooldown = StoredCooldown(scope: .messages, until: time(90), automatic: true)
            try store.updateSessionState { $0.cursor = 42; $0.hasStartedChat = true }
            try store.updateSessionState { state in
                state.cooldowns = [cooldown]
                state.pendingActionClicks = ["m1"]
                state.unread = UnreadSnapshot(hasConversation: true, status: .open, lastMessageAt: time(3),
                                              pushActive: true, pollingStages: [])
                state.preferences = SynchronisedPreferences(language: "de", updatesAppBadge: true,
                                                            availablePaywalls: ["pro"], badgeSynchronised: true)
            }
            let state = try fixture.open(scope).sessionState()
            try require(state.cursor == 42 && state.hasStartedChat, "first update lost")
            try require(state.cooldowns == [cooldown] && state.pendingActionClicks == ["m1"], "second update lost")
            try require(state.unread.pollingStages == [] && state.preferences.language == "de", "nested values lost")
        },
        ContractCheck("a chat reset clears the conversation and keeps cooldowns (spec 7.12)") { fixture in
            let store = try fixture.open(scope)
            let cooldown = StoredCooldown(scope: .uploads, until: time(600), automatic: false)
            try store.enqueue(unsent("u", photos: 1))
            try store.save([confirmed(1)])
            try store.setDraft("draft")
            try store.updateSessionState { state in
                state.cursor = 1
                state.hasStartedChat = true
                state.pendingActionClicks = ["m"]
                state.cooldowns = [cooldown]
            }
            try store.resetChat(revision: 3)
            let reopened = try fixture.open(scope)
            try require(try reopened.loadWindow().isEmpty && reopened.draft().isEmpty, "chat not cleared")
            let state = try reopened.sessionState()
            try require(state.cursor == nil && !state.hasStartedChat && state.pendingActionClicks.isEmpty,
                        "conversation state kept")
            try require(state.chatRevision == 3 && state.cooldowns == [cooldown], "revision or cooldowns wrong")
        },
    ]

    static let scopeChecks: [ContractCheck<MessageStoreFixture>] = [
        ContractCheck("after rotating, nothing of the previous scope is readable (spec 7.15)") { fixture in
            let store = try fixture.open(scope)
            try store.enqueue(unsent("secret", photos: 1))
            try store.save([confirmed(1)])
            try store.setDraft("previous user's draft")
            try store.updateSessionState { $0.cursor = 9 }
            try store.rotate(to: nextScope)
            try require(store.scope == nextScope, "scope not switched")
            for reopened in [store, try fixture.open(nextScope), try fixture.open(scope)] {
                try require(try reopened.loadWindow().isEmpty, "messages readable after rotation")
                try require(try reopened.draft().isEmpty, "draft readable after rotation")
                try require(try reopened.sessionState() == SessionState(), "state readable after rotation")
            }
        },
        ContractCheck("rotating one App ID keeps the scopes of other App IDs") { fixture in
            try fixture.open(otherApp).setDraft("other app")
            let store = try fixture.open(scope)
            try store.setDraft("this app")
            try store.rotate(to: nextScope)
            try require(try fixture.open(otherApp).draft() == "other app", "another App ID was erased")
        },
    ]
}
