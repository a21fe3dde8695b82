import ReceptionTesting
import Testing

@Suite("SeededRandomNumberGeneratorTests")
struct SeededRandomNumberGeneratorTests {
    /// SplitMix64's outputs for seeds 0 and 42, computed by an independent Python implementation of the algorithm.
    @Test(arguments: [
        (UInt64(0), [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F] as [UInt64]),
        (UInt64(42), [0xBDD7_3226_2FEB_6E95, 0x28EF_E333_B266_F103, 0x4752_6757_130F_9F52] as [UInt64]),
    ])
    func theSequenceIsSplitMix64(seed: UInt64, expected: [UInt64]) {
        var generator = SeededRandomNumberGenerator(seed: seed)
        #expect((0..<3).map { _ in generator.next() } == expected)
        #expect(generator.seed == seed)
    }

    @Test func theSameSeedRepeatsTheSameDraws() {
        var first = SeededRandomNumberGenerator(seed: 7)
        var second = SeededRandomNumberGenerator(seed: 7)
        let a = (0..<100).map { _ in Int.random(in: 0..<1_000, using: &first) }
        let b = (0..<100).map { _ in Int.random(in: 0..<1_000, using: &second) }
        #expect(a == b)
        var other = SeededRandomNumberGenerator(seed: 8)
        #expect(a != (0..<100).map { _ in Int.random(in: 0..<1_000, using: &other) })
        #expect(Set(a.map { $0 / 100 }).count == 10, "draws spread over the whole range")
    }

    @Test(arguments: [("42", UInt64(42)), (" 42 ", 42), ("0x2A", 42), ("0X2a", 42), ("18446744073709551615", .max)])
    func theEnvironmentFixesTheSeed(text: String, seed: UInt64) {
        let generator = SeededRandomNumberGenerator.fromEnvironment(["RECEPTION_TEST_SEED": text])
        #expect(generator.seed == seed)
        #expect(generator.reproduction == "random seed \(seed); repeat with RECEPTION_TEST_SEED=\(seed)")
    }

    @Test(arguments: ["", "seed", "-1", "0x", "18446744073709551616"])
    func anUnreadableSeedIsReplacedByAFreshOne(text: String) {
        // Two fresh seeds from the system's 64-bit source collide with probability 2⁻⁶⁴.
        let seeds = (0..<2).map { _ in SeededRandomNumberGenerator.fromEnvironment(["RECEPTION_TEST_SEED": text]).seed }
        #expect(seeds[0] != seeds[1])
        let unset = (0..<2).map { _ in SeededRandomNumberGenerator.fromEnvironment([:]).seed }
        #expect(unset[0] != unset[1])
    }
}
