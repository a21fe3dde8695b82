import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Review and paywall cards (spec 7.21, seed 001): taps, events, the click receipt on the service.
@Suite("CardTests", .serialized)
@MainActor
struct CardTests {
    @Test func paywallRegistrationFollowsTheRules() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let offered = [
            ReceptionPaywall(id: " pro ", title: " Pro "), ReceptionPaywall(id: "pro", title: "Duplicate"),
            ReceptionPaywall(id: "bad id", title: "x"), ReceptionPaywall(id: "", title: "x"),
            ReceptionPaywall(id: "ok", title: ""), ReceptionPaywall(id: String(repeating: "a", count: 65), title: "x"),
        ]
        app.reception.paywalls = offered + (0..<30).map { ReceptionPaywall(id: "p\($0)", title: "P\($0)") }
        #expect(app.reception.paywalls.count == 20, "reading gives the validated list")
        #expect(app.reception.paywalls.first == ReceptionPaywall(id: "pro", title: "Pro"))
        #expect(app.reception.availablePaywalls.first == ReceptionPaywall(id: "pro", title: "Pro"))
        #expect(app.reception.availablePaywalls.count == 20)
        #expect(!app.reception.availablePaywalls.contains { $0.id == "bad id" || $0.title == "Duplicate" })
    }

    /// An install whose open chat shows a review card the team sent, with its device ID.
    static func reviewCardShown(_ service: Service) async throws -> (App, String, ChatMessage) {
        let app = App(service)
        await app.launch()
        try await app.send("hi")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.reception.openChat()
        return (app, device, try await app.receiveReviewCard())
    }

    @Test func aReviewCardOpensItsLinkEmitsTheEventAndRecordsTheClick() async throws {
        let service = try Service()
        let (app, device, card) = try await Self.reviewCardShown(service)
        #expect(app.reception.tapCard(card))
        #expect(app.openedURLs.map(\.host) == ["apps.apple.com"])
        #expect(app.events.contains(.reviewOpened))
        let recorded = await until {
            let list = (try? await service.admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]]) ?? []
            return list.contains { $0["kind"] as? String == "REVIEW" && !($0["actionClickedAt"] is NSNull) && $0["actionClickedAt"] != nil }
        }
        #expect(recorded, "the click receipt reached the service")
    }

    /// The service's `actionClickedAt` of the review card of `device`, or `nil` while none was recorded.
    static func reviewClickedAt(_ service: Service, _ device: String) async throws -> String? {
        let list = try await service.admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]] ?? []
        return list.first { $0["kind"] as? String == "REVIEW" }?["actionClickedAt"] as? String
    }

    /// Seed 001 "Verify in your app" 8: a review card tapped offline opens the App Store at once; its click receipt
    /// waits and reaches the service once the network is back (the next device update), once (issue 52).
    @Test func aReviewCardTappedOfflineSendsItsClickReceiptOnceOnline() async throws {
        let service = try Service()
        let (app, device, card) = try await Self.reviewCardShown(service)
        app.transport.isOffline = true
        #expect(app.reception.tapCard(card))
        #expect(app.openedURLs.map(\.host) == ["apps.apple.com"], "the App Store action does not wait for the network")
        let tried = await until { app.transport.refused.contains { $0.url.path.hasSuffix("/conversation/action-click") } }
        #expect(tried, "the receipt was tried while offline")
        #expect(try await Self.reviewClickedAt(service, device) == nil, "nothing reached the service while offline")
        app.transport.isOffline = false
        // Online again: the chat's next opening updates the device, and the queued receipt follows.
        app.reception.closeChat()
        app.reception.openChat()
        let recorded = await until { (try? await Self.reviewClickedAt(service, device)) != nil }
        #expect(recorded, "the click receipt reached the service once online")
        // Another device update sends nothing more: the queue was emptied by the answer.
        let updates = app.transport.log.filter { $0.request.method == "PATCH" && $0.path.hasSuffix("/devices/me") }.count
        app.reception.closeChat()
        app.reception.openChat()
        let updatedAgain = await until {
            app.transport.log.filter { $0.request.method == "PATCH" && $0.path.hasSuffix("/devices/me") }.count > updates
        }
        #expect(updatedAgain)
        let clicks = app.transport.log.filter { $0.path.hasSuffix("/conversation/action-click") }
        #expect(clicks.map(\.status) == [200], "sent once: \(clicks.map(\.status))")
    }

    @Test func aPaywallCardCallsTheHandlerOnlyWhileAvailable() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        var presented: [String] = []
        app.reception.onPaywall = { presented.append($0) }
        app.reception.paywalls = [ReceptionPaywall(id: "pro", title: "Pro")]
        try await app.send("hi")
        let synced = await until {
            ((try? await service.devices().first?["paywalls"] as? [[String: String]]) ?? []) == [["id": "pro", "title": "Pro"]]
        }
        #expect(synced, "the available paywalls reached the service")
        app.reception.openChat()
        let card = try await app.receivePaywallCard()
        #expect(app.reception.tapCard(card))
        #expect(presented == ["pro"] && app.events.contains(.paywallOpened))
        app.reception.paywallAvailability = { _ in false }
        let gone = await until { app.reception.availablePaywalls.isEmpty }
        #expect(gone)
        #expect(!app.reception.tapCard(card), "an unavailable paywall shows No longer available")
        #expect(presented == ["pro"])
    }
}
