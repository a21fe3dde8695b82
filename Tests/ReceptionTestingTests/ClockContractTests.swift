import Foundation
import ReceptionCore
import ReceptionTesting
import Testing

/// The real clock and the manual clock pass the same contract.
@Suite("ClockContractTests")
struct ClockContractTests {
    struct Implementation: Sendable, CustomStringConvertible {
        let description: String
        let make: @Sendable () -> ClockFixture
    }

    static let implementations = [
        Implementation(description: "SystemClock") {
            ClockFixture(name: "SystemClock", clock: SystemClock()) { duration in
                try? await Task.sleep(for: duration)
            }
        },
        Implementation(description: "ManualClock") {
            let clock = ManualClock()
            return ClockFixture(name: "ManualClock", clock: clock) { duration in
                await clock.waitForSleepers(atLeast: 1)
                await clock.advance(by: duration)
            }
        },
    ]

    @Test(arguments: implementations, ClockContract.checks)
    func contract(implementation: Implementation, check: ContractCheck<ClockFixture>) async throws {
        try await check.run(implementation.make())
    }

    @Test(arguments: [
        NamedIDGenerator("SystemIDGenerator", SystemIDGenerator()),
        NamedIDGenerator("IncrementingIDGenerator", IncrementingIDGenerator()),
    ], IDGeneratorContract.checks)
    func idContract(generator: NamedIDGenerator, check: ContractCheck<NamedIDGenerator>) async throws {
        try await check.run(generator)
    }
}
