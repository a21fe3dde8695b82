// This file imports ReceptionKit alone, as a host does: it compiles only if the seeds' samples do. Each sample then
// runs against the in-process emulator (`Service`, `App`), and the test checks what it did there.
import Foundation
import ReceptionKit
import Testing

/// The product documents' code samples (seed 000 "Show confirmation, progress, and retry" and the token refresh in
/// `onEvent`, seed 002 push token, seed 004 "Forward push notifications"), written against `import ReceptionKit`
/// only, with `Reception.shared` replaced by the install's instance.
@Suite("SeedSampleTests", .serialized)
@MainActor
struct SeedSampleTests {
    /// Seed 000's deletion model, as the document writes it, against `deleteData() async throws` (the declaration
    /// seed 000 gives, and ours). The model holds the call as a closure so the test can give it the install's
    /// instance instead of `Reception.shared`.
    @MainActor
    final class SupportDeletionModel {
        private let deleteData: @MainActor () async throws -> Void
        private(set) var isDeleting = false
        private(set) var completed = false
        private(set) var errorMessage: String?

        init(_ reception: Reception) { deleteData = { try await reception.deleteData() } }

        func delete() async {
            guard !isDeleting, !completed else { return }
            isDeleting = true
            errorMessage = nil
            defer { isDeleting = false }

            do {
                try await deleteData()
                completed = true
            } catch let error as ReceptionError {
                if error.code == "delete_failed" {
                    errorMessage = "Some support images could not be deleted. Please retry."
                } else if error.code == "connection_failed" {
                    errorMessage = "Could not reach support. Check your connection and retry."
                } else {
                    errorMessage = "Support deletion could not finish. Please retry."
                }
            } catch {
                errorMessage = "Support deletion could not finish. Please retry."
            }
        }
    }

    @Test func theDeletionSampleShowsAnOfflineFailureThenCompletesOnRetry() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("delete me later")
        let model = SupportDeletionModel(app.reception)

        app.transport.isOffline = true
        await model.delete()
        #expect(model.errorMessage == "Could not reach support. Check your connection and retry.")
        #expect(!model.completed && !model.isDeleting)
        #expect(!app.events.contains(.dataDeleted))
        #expect(try await service.devices().count == 1, "a failed deletion deletes nothing")
        #expect(app.texts.contains("delete me later"), "a failed deletion keeps the session")

        app.transport.isOffline = false
        await model.delete()
        #expect(model.completed && !model.isDeleting)
        #expect(model.errorMessage == nil, "a retry clears the failure")
        #expect(app.events.contains(.dataDeleted))
        #expect(try await service.devices().isEmpty)
        #expect(app.texts.isEmpty)
    }

    @Test func theForwardingSampleRecognisesSupportPushesRefreshesTheCountAndATapOpensTheChat() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        // Seed 002: the token as the host gets it, staged and sent with the next device update of a used chat.
        app.reception.setPushToken(Data([0x01, 0xAB]), environment: Reception.PushEnvironment.sandbox)
        try await app.send("hi")
        let device = try #require(try await service.devices().first)
        #expect(device["pushToken"] as? String == "01ab")
        #expect(device["pushEnvironment"] as? String == "SANDBOX")
        let id = try #require(device["id"] as? String)
        try await service.admin("POST", "devices/\(id)/messages", ["text": "an agent reply"])

        // Seed 004, a notification while the app is in front.
        let userInfo: [AnyHashable: Any] = ["aps": ["alert": "New message"], "reception": ["conversationId": "c1"]]
        let handled = app.reception.handlePushNotification(
            userInfo: userInfo,
            openChat: false
        )
        var suppressedBanner = false
        if handled && app.reception.isChatOpen {
            suppressedBanner = true
        }
        #expect(handled)
        #expect(!suppressedBanner, "the chat is closed: the host shows its banner")
        #expect(await until { app.reception.unreadCount == 1 }, "a forwarded support push refreshes the count")
        #expect(!app.reception.handlePushNotification(userInfo: ["aps": ["alert": "Sale!"]], openChat: false),
                "another feature's push is not Reception's")

        // A tap on the notification: the default opens the chat, whose read clears the count.
        _ = app.reception.handlePushNotification(userInfo: userInfo)
        #expect(app.reception.isChatOpen)
        #expect(app.events.contains(.chatOpened))
        #expect(await until { app.reception.unreadCount == 0 })
    }

    @Test func theTokenRefreshSampleReplacesAnExpiredTokenAndTheUserIsVerified() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("hello before signing in")
        let reception = app.reception
        var refreshed = false
        // Seed 000: `onEvent` holds one handler; the host's own branch (recording the events here) stays in it.
        reception.onEvent = { [weak app] event in
            app?.events.append(event)
            if case .identityRejected(let error) = event, error.code == "identity_token_expired" {
                Task {
                    reception.identify(token: try service.token(userId: "alice"))
                    refreshed = true
                }
            }
        }
        // A token that expired while the app was away reaches the service with the device update of the opening.
        reception.identify(token: try service.token(userId: "alice", lifetime: -60))
        reception.openChat()
        let rejected = await until {
            app.events.contains { if case .identityRejected(let error) = $0 { error.code == "identity_token_expired" } else { false } }
        }
        #expect(rejected, "events: \(app.events)")
        #expect(await until { refreshed }, "the handler did not fetch a new token")
        #expect(reception.identityState != .verified(userId: "alice"), "an expired token verifies nobody")
        // The new token travels with the next device update; the next opening sends one.
        reception.closeChat()
        reception.openChat()
        #expect(await until { reception.identityState == .verified(userId: "alice") })
        #expect(try await service.devices().first?["verifiedUserId"] as? String == "alice")
        #expect(try await service.devices().count == 1, "the same device, now verified")
    }

    @Test func theSamplesDoNothingBeforeConfigure() async {
        let reception = Reception()
        // Seed 000: events arrive through onEvent; installed first, so anything emitted below would be seen.
        var events: [ReceptionEvent] = []
        reception.onEvent = { events.append($0) }
        let model = SupportDeletionModel(reception)
        await model.delete()
        #expect(model.completed && model.errorMessage == nil, "before configure a deletion does nothing and throws nothing")
        // Seed 002 / 004: recognition only, so the host does not hand the payload to another SDK.
        #expect(reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c1"]], openChat: false))
        #expect(!reception.handlePushNotification(userInfo: ["reception": ["conversationId": ""]], openChat: false))
        reception.setPushToken(Data([0x01, 0xAB]), environment: Reception.PushEnvironment.sandbox)
        reception.openChat()
        #expect(!reception.isChatOpen)
        #expect(events.isEmpty, "no event before configure, not even .dataDeleted: \(events)")
        #expect(ReceptionError(code: "connection_failed") == ReceptionError.connectionFailed())
    }
}
