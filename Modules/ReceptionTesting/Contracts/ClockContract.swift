import Foundation
import ReceptionCore

/// A clock under test and how to let time pass on it: real clocks wait, manual clocks are advanced.
public struct ClockFixture: Sendable, CustomStringConvertible {
    /// The implementation's name.
    public let name: String
    /// The clock.
    public let clock: any ReceptionClock
    /// Lets `duration` of time pass (a real clock sleeps; a manual clock advances).
    public let pass: @Sendable (Duration) async -> Void

    /// Makes a fixture.
    public init(name: String, clock: any ReceptionClock, pass: @escaping @Sendable (Duration) async -> Void) {
        self.name = name
        self.clock = clock
        self.pass = pass
    }

    public var description: String { name }
}

/// The `ReceptionClock` contract.
public enum ClockContract {
    /// Every check.
    public static let checks: [ContractCheck<ClockFixture>] = [
        ContractCheck("uptime never goes backwards") { fixture in
            let first = fixture.clock.uptime
            await fixture.pass(.milliseconds(5))
            try require(fixture.clock.uptime >= first, "uptime went backwards")
        },
        ContractCheck("a sleeper wakes only after its duration has passed") { fixture in
            let clock = fixture.clock
            let start = clock.uptime
            let sleeper = Task { try await clock.sleep(for: .milliseconds(20)); return clock.uptime }
            await fixture.pass(.milliseconds(25))
            let woke = try await sleeper.value
            try require(woke - start >= .milliseconds(20), "woke after \(woke - start)")
        },
        ContractCheck("wall time moves with elapsed time") { fixture in
            let before = fixture.clock.now
            await fixture.pass(.milliseconds(20))
            let moved = fixture.clock.now.timeIntervalSince(before)
            try require(moved >= 0.019, "wall clock moved \(moved) s for 20 ms")
        },
        ContractCheck("a cancelled sleeper throws CancellationError without waiting") { fixture in
            let clock = fixture.clock
            let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
            await Task.yield()
            sleeper.cancel()
            do {
                try await sleeper.value
                throw ContractFailure("a cancelled sleep returned normally")
            } catch is CancellationError {}
        },
        ContractCheck("a zero or negative sleep returns at once") { fixture in
            try await fixture.clock.sleep(for: .zero)
            try await fixture.clock.sleep(for: .milliseconds(-5))
        },
    ]
}

/// The `IDGenerating` contract.
public enum IDGeneratorContract {
    /// Every check; the fixture is the generator.
    public static let checks: [ContractCheck<NamedIDGenerator>] = [
        ContractCheck("IDs are unique") { fixture in
            let ids = (0..<1000).map { _ in fixture.generator.makeID() }
            try require(Set(ids).count == ids.count, "duplicate IDs")
        },
        ContractCheck("IDs are upper-case canonical UUID strings (spec 7.8.1)") { fixture in
            let id = fixture.generator.makeID()
            try require(UUID(uuidString: id) != nil && id == id.uppercased() && id.count == 36, "bad ID \(id)")
        },
    ]
}

/// A generator with a name for test output.
public struct NamedIDGenerator: Sendable, CustomStringConvertible {
    /// The name.
    public let description: String
    /// The generator.
    public let generator: any IDGenerating

    /// Makes a named generator.
    public init(_ name: String, _ generator: any IDGenerating) {
        self.description = name
        self.generator = generator
    }
}
