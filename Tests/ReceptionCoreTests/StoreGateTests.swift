import ReceptionCore
import Testing

/// `StoreGate`: a session's store access that its end closes (spec 7.15).
@Suite("StoreGateTests")
struct StoreGateTests {
    /// A store stand-in that records what was written.
    final class Notebook: Sendable {
        private let lines = Locked<[String]>([])
        var written: [String] { lines.withLock { $0 } }
        func write(_ line: String) { lines.withLock { $0.append(line) } }
    }

    @Test func anOpenGateReadsAndWritesThrough() throws {
        let notebook = Notebook()
        let gate = StoreGate(notebook)
        try gate.write { $0.write("a") }
        #expect(try gate.read(orIfClosed: []) { $0.written } == ["a"])
    }

    @Test func afterClosingWritesThrowStorageUnavailableAndReadsSeeTheEmptyValue() throws {
        let notebook = Notebook()
        let gate = StoreGate(notebook)
        let role = gate.role { $0 as Notebook }
        var lastStep: [String] = []
        try gate.close { lastStep = $0.written + ["rotated"] }
        #expect(lastStep == ["rotated"], "the closing step runs with the store")
        let error = #expect(throws: ReceptionError.self) { try role.write { $0.write("late") } }
        #expect(error?.code == ReceptionError.Code.storageUnavailable)
        #expect(try role.read(orIfClosed: ["nothing"]) { $0.written } == ["nothing"])
        #expect(notebook.written.isEmpty, "the late write never reached the store")
    }

    @Test func whatTheStoreThrowsComesThroughUnchanged() {
        let gate = StoreGate(Notebook())
        let error = #expect(throws: ReceptionError.self) { try gate.write { _ in throw ReceptionError.storageFull } }
        #expect(error?.code == ReceptionError.Code.storageFull)
    }
}
