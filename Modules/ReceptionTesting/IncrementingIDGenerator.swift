import Foundation
import ReceptionCore

/// An `IDGenerating` that counts: `00000000-0000-0000-0000-000000000001`, then `…0002`, and so on, so tests can
/// name the IDs they expect.
public final class IncrementingIDGenerator: IDGenerating {
    private let counter: Locked<UInt64>

    /// A generator whose first ID ends in `first`.
    public init(first: UInt64 = 1) { counter = Locked(first) }

    public func makeUUID() -> UUID {
        let value = counter.withLock { value in
            defer { value += 1 }
            return value
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[15 - i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
