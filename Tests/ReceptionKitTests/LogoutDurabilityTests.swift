import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Issue 15: a logout whose write of `preferences.json` fails (a full disk) is logged, retried, and completed
/// before the next launch reads the file, so the logged-out identity never comes back.
@Suite("LogoutDurabilityTests", .serialized)
@MainActor
struct LogoutDurabilityTests {
    /// A disk that refuses writes while `isFull` is on.
    final class Disk: Sendable {
        private let full = Locked(false)
        var isFull: Bool {
            get { full.withLock { $0 } }
            set { full.withLock { $0 = newValue } }
        }

        /// The SDK's writer, failing with `storage_full` while the disk is full.
        func writer(_ write: @escaping FilePreferences.Write) -> FilePreferences.Write {
            { [self] data, url throws(ReceptionError) in
                if isFull { throw ReceptionError.storageFull }
                try write(data, url)
            }
        }
    }

    static let traces = ["uid-d-73c1", "Name D 73c1", "d73c1@example.com", "meta-d-73c1", "d73c1d73c1"]

    /// User D with every kind of pending identity: user ID, name, email, metadata, push token; one message sent.
    func signInD(_ app: App) async throws {
        app.reception.identify(userId: "uid-d-73c1", name: "Name D 73c1", email: "d73c1@example.com")
        app.reception.setMetadata(["plan": "meta-d-73c1"])
        app.reception.setPushToken(Data([0xD7, 0x3C, 0x1D, 0x73, 0xC1]), environment: .sandbox)
        try await app.send("message of D")
        let file = try Data(contentsOf: app.preferencesURL)
        for trace in Self.traces { try #require(file.range(of: Data(trace.utf8)) != nil, "\(trace) was never stored") }
    }

    /// The next launch finds nothing of D: not in the preferences file, not in the identity, not on the device the
    /// next send registers.
    func expectNothingOfD(_ relaunched: App, _ service: Service) async throws {
        #expect(relaunched.reception.identityState == .anonymous)
        let file = try Data(contentsOf: relaunched.preferencesURL)
        for trace in Self.traces {
            #expect(file.range(of: Data(trace.utf8)) == nil, "\(trace) is back in preferences.json")
        }
        try await relaunched.send("first message after the relaunch")
        let devices = try await service.devices()
        try #require(devices.count == 2, "the relaunch did not start a new session")
        let next = devices[1]
        #expect(next["externalUserId"] as? String == nil && next["name"] as? String == nil)
        #expect(next["email"] as? String == nil && next["pushToken"] as? String == nil)
        #expect((next["metadata"] as? [String: String] ?? [:]).isEmpty)
    }

    @Test func aLogoutWhosePreferencesWriteFailedIsCompletedAtTheNextLaunch() async throws {
        let service = try Service()
        let disk = Disk()
        let log = RecordingLogHandler()
        let previousHandler = Reception.logHandler
        Reception.logHandler = { level, text in log.log(LogRecord(level: level, category: "Reception", message: text)) }
        defer { Reception.logHandler = previousHandler }
        let app = App(service)
        app.writePreferencesFile = disk.writer(ReceptionConfiguration().writePreferencesFile)
        await app.launch()
        try await signInD(app)
        disk.isFull = true
        app.reception.logout()
        #expect(log.records.contains { $0.level == .error && $0.message.contains("preferences") },
                "the failed write was not logged")
        // The process ends before the disk has room again; the next one starts from the files.
        FilePreferences.dropShared(url: app.preferencesURL)
        let relaunched = App(service, directory: app.directory)
        await relaunched.launch()
        try await expectNothingOfD(relaunched, service)
        withExtendedLifetime(app) {}
    }

    @Test func aFailedWriteIsRetriedWhenTheAppIsActiveAgain() async throws {
        let service = try Service()
        let disk = Disk()
        let app = App(service)
        app.writePreferencesFile = disk.writer(ReceptionConfiguration().writePreferencesFile)
        await app.launch()
        try await signInD(app)
        disk.isFull = true
        app.reception.logout()
        disk.isFull = false
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
        let file = try Data(contentsOf: app.preferencesURL)
        for trace in Self.traces {
            #expect(file.range(of: Data(trace.utf8)) == nil, "\(trace) is still in preferences.json")
        }
        FilePreferences.dropShared(url: app.preferencesURL)
        let relaunched = App(service, directory: app.directory)
        await relaunched.launch()
        try await expectNothingOfD(relaunched, service)
        withExtendedLifetime(app) {}
    }
}

extension App {
    var preferencesURL: URL { directory.appendingPathComponent("preferences.json") }
}
