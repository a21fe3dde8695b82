/// Randomness for jitter, injected so backoff delays are exact in tests.
public protocol RandomSource: Sendable {
    /// A uniformly distributed value in `0 ..< 1`.
    func unit() -> Double
}

extension RandomSource {
    /// A uniformly distributed value in `range`.
    @inline(never) @_optimize(size) public func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }
}

/// The system's random generator.
public struct SystemRandomSource: RandomSource {
    /// Makes a source.
    @_optimize(size) public init() {}

    @_optimize(size) public func unit() -> Double { Double.random(in: 0..<1) }
}
