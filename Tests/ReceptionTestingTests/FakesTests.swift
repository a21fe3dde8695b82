import Foundation
import ReceptionCore
import ReceptionTesting
import Testing

@Suite("FakesTests")
struct FakesTests {
    @Test func incrementingIDsAreNamedAndUpperCase() {
        let ids = IncrementingIDGenerator()
        #expect(ids.makeID() == "00000000-0000-0000-0000-000000000001")
        #expect(ids.makeID() == "00000000-0000-0000-0000-000000000002")
        let later = IncrementingIDGenerator(first: 0xABCDEF)
        #expect(later.makeID() == "00000000-0000-0000-0000-000000ABCDEF")
    }

    @Test func unavailableReadsKeepTheValuesForLater() throws {
        let store = InMemorySecureStore()
        let key = SecureStoreKey.session(scope: "s")
        try store.write(Data("v".utf8), for: key)
        store.readsUnavailable = true
        #expect(store.read(key) == .unavailable(reason: "reads switched off"))
        #expect(store.read(SecureStoreKey.session(scope: "other")) != .missing, "unavailable is never missing")
        store.readsUnavailable = false
        #expect(store.read(key) == .value(Data("v".utf8)))
    }

    @Test func failingWritesChangeNothingAndAreNotCounted() throws {
        let store = InMemorySecureStore()
        let key = SecureStoreKey.pendingSessionRevocations
        try store.write(Data("a".utf8), for: key)
        store.writesFail = true
        #expect(throws: ReceptionError.secureStorageUnavailable) { try store.write(Data("b".utf8), for: key) }
        #expect(throws: ReceptionError.secureStorageUnavailable) { try store.delete(key) }
        #expect(throws: ReceptionError.secureStorageUnavailable) { try store.deleteAll(namespace: key.namespace) }
        #expect(store.read(key) == .value(Data("a".utf8)))
        #expect(store.writeCount == 1)
        #expect(store.keys == [key])
    }

    @Test func loggerFiltersByLevelAndTheRecorderKeepsOrder() {
        let recorder = RecordingLogHandler()
        let logger = recorder.logger(level: .info, category: "Transport")
        logger.debug("hidden")
        logger.info("first")
        logger.error("second")
        #expect(recorder.records == [
            LogRecord(level: .info, category: "Transport", message: "first"),
            LogRecord(level: .error, category: "Transport", message: "second"),
        ])
        #expect(recorder.messages(at: .error) == ["second"])
        recorder.clear()
        let off = recorder.logger(level: .off)
        off.error("nothing")
        #expect(recorder.records.isEmpty)
        logger.with(category: "Identity").log(.off, "never a line at level off")
        #expect(recorder.records.isEmpty)
    }

    @Test func filteredMessagesAreNeverBuilt() {
        let recorder = RecordingLogHandler()
        let logger = recorder.logger(level: .error)
        nonisolated(unsafe) var built = false
        logger.debug({ built = true; return "expensive" }())
        #expect(!built)
    }

    @Test func logLevelsAreOrdered() {
        #expect(LogLevel.off < .error && LogLevel.error < .info && LogLevel.info < .debug)
        #expect(LogLevel.allCases.map(\.description) == ["off", "error", "info", "debug"])
    }
}
