// Imports ReceptionKit alone, as a host moving from the reference SDK does: this file compiles only if its names
// (issue 17: `paywalls`, `ReceptionPaywall(id:title:)`, `Reception.LogLevel`, `Reception.logHandler`, static
// `isConfigured`, `version`, a main-actor `paywallAvailability`) are there with those shapes.
import Foundation
import ReceptionKit
import Testing

@Suite("ReferenceNamesTests")
@MainActor
struct ReferenceNamesTests {
    @Test func paywallsIsASettableValidatedListAndAvailabilityRunsOnTheMainActor() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.paywalls = [
            ReceptionPaywall(id: " pro ", title: "Pro"), ReceptionPaywall(id: "annual", title: "Annual"),
            ReceptionPaywall(id: "bad id", title: "Dropped"),
        ]
        #expect(app.reception.paywalls.map(\.id) == ["pro", "annual"])
        #expect(app.reception.availablePaywalls.map(\.id) == ["pro", "annual"], "no availability check: all")
        let asked = AskedPaywalls()
        // A main-actor closure: it may touch main-actor state (`asked`) without hopping.
        let availability: @MainActor (String) async -> Bool = { id in
            MainActor.assertIsolated()
            asked.ids.append(id)
            return id == "annual"
        }
        app.reception.paywallAvailability = availability
        #expect(await until { app.reception.availablePaywalls.map(\.id) == ["annual"] })
        #expect(asked.ids == ["pro", "annual"])
    }

    @Test func theStaticNamesAreThere() {
        let level: Reception.LogLevel = .debug
        #expect(level > .info && Reception.LogLevel.off < .error)
        // Semantic Versioning; scripts/version-check holds it equal to the newest CHANGELOG.md entry.
        let parts = Reception.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } })
        // No test configures `Reception.shared`.
        #expect(Reception.isConfigured == false)
        let handler: (@Sendable (Reception.LogLevel, String) -> Void)? = Reception.logHandler
        _ = handler
    }
}

extension LogoutDurabilityTests {
    // Here because this suite is the one that swaps the process-wide handler and runs serialized: two suites
    // replacing it at once would take each other's lines.
    @Test func theLogHandlerClosureGetsTheLevelAndOneLineAndLogLevelFilters() {
        let lines = LinesBox()
        let previousHandler = Reception.logHandler, previousLevel = Reception.logLevel
        defer { Reception.logHandler = previousHandler; Reception.logLevel = previousLevel }
        Reception.logHandler = { level, line in lines.append(level, line) }
        let reception = Reception()
        reception.openChat()
        #expect(lines.all.contains { $0.level == .error && $0.line.hasPrefix("Configuration: openChat ignored") },
                "\(lines.all)")
        Reception.logLevel = .off
        let before = lines.all.count
        reception.openChat()
        #expect(lines.all.count == before, "off: nothing reaches the handler")
    }
}

/// The paywall IDs an availability check was asked about, on the main actor.
@MainActor
final class AskedPaywalls {
    var ids: [String] = []
}

/// The lines a test's `logHandler` received.
final class LinesBox: Sendable {
    private let lines = Locked<[(level: Reception.LogLevel, line: String)]>([])
    func append(_ level: Reception.LogLevel, _ line: String) { lines.withLock { $0.append((level, line)) } }
    var all: [(level: Reception.LogLevel, line: String)] { lines.withLock { $0 } }
}
