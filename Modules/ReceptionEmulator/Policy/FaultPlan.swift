/// Faults queued through the admin API for reliability tests: each matches requests by method, path and device,
/// fires with its probability, and stays for its next `count` firings (or until removed).
final class FaultPlan: Sendable {
    /// What a fault does to a matching request.
    enum Action: Sendable, Equatable {
        /// Wait `milliseconds` plus a random 0…`jitter` milliseconds, then answer normally.
        case delay(milliseconds: Int, jitter: Int)
        /// Answer with this error instead of handling the request (nothing is committed).
        case fail(APIError)
        /// Handle and commit the request, then close the connection without an answer.
        case drop
        /// Answer with a body that is not JSON (a response the client cannot interpret, spec 1.6): after handling
        /// and committing the request, with its status; or, when `commits` is false, with 200 and nothing handled.
        case garble(commits: Bool)
    }

    /// What firing a fault does to one request: the action with its jitter already drawn.
    enum Firing: Sendable, Equatable {
        case delay(milliseconds: Int)
        case fail(APIError)
        case drop
        case garble(commits: Bool)
    }

    struct Fault: Sendable, Equatable {
        /// `flt_` + a counter, for removing one fault.
        var id = ""
        var method: String?
        /// An exact path, or a prefix when it ends with `*`.
        var path: String
        /// Only requests of this device (by its access token) match; `nil` matches every request.
        var deviceId: String?
        var action: Action
        /// Firings left; `nil` fires until the fault is removed.
        var remaining: Int?
        /// The chance, 0…1, that a matching request fires the fault; a request it spares spends no use.
        var probability: Double = 1

        func matches(method: String, path: String, deviceId: String?) -> Bool {
            // The admin API is the way to clear faults: a fault on `*` must not lock it out with delays or errors.
            if path.hasPrefix("/admin/") || path.hasPrefix("/dashboard/") { return false }
            if let expected = self.method, expected != method { return false }
            if let expected = self.deviceId, expected != deviceId { return false }
            if self.path.hasSuffix("*") { return path.hasPrefix(self.path.dropLast()) }
            return self.path == path
        }
    }

    private struct State {
        var faults: [Fault] = []
        var nextId = 1
        var random: SplitMix64
    }

    private let state: EmulatorLock<State>

    /// A plan drawing its probabilities and jitter from `seed` (the same seed, the same draws).
    init(seed: UInt64) { state = EmulatorLock(State(random: SplitMix64(seed: seed))) }

    /// Queues a fault and returns it with its ID.
    @discardableResult
    func add(_ fault: Fault) -> Fault {
        state.withLock { state in
            var fault = fault
            fault.id = "flt_\(state.nextId)"
            state.nextId += 1
            state.faults.append(fault)
            return fault
        }
    }

    /// Removes every queued fault.
    func clear() { state.withLock { $0.faults.removeAll() } }

    /// Removes the fault with `id`; whether there was one.
    func remove(id: String) -> Bool {
        state.withLock { state in
            guard let index = state.faults.firstIndex(where: { $0.id == id }) else { return false }
            state.faults.remove(at: index)
            return true
        }
    }

    /// The queued faults, oldest first.
    var pending: [Fault] { state.withLock { $0.faults } }

    /// Whether any queued fault matches by device (the router then looks the device up before routing).
    var needsDevice: Bool { state.withLock { state in state.faults.contains { $0.deviceId != nil } } }

    /// The firing of the oldest fault matching the request that its probability lets fire, spending one use.
    func take(method: String, path: String, deviceId: String? = nil) -> Firing? {
        state.withLock { state in
            for index in state.faults.indices {
                let fault = state.faults[index]
                guard fault.matches(method: method, path: path, deviceId: deviceId) else { continue }
                if fault.probability < 1, state.random.unitInterval() >= fault.probability { continue }
                let firing: Firing
                switch fault.action {
                case .delay(let milliseconds, let jitter):
                    let extra = jitter > 0 ? Int(state.random.next() % UInt64(jitter + 1)) : 0
                    firing = .delay(milliseconds: milliseconds + extra)
                case .fail(let error): firing = .fail(error)
                case .drop: firing = .drop
                case .garble(let commits): firing = .garble(commits: commits)
                }
                if let remaining = fault.remaining {
                    if remaining <= 1 { state.faults.remove(at: index) } else { state.faults[index].remaining = remaining - 1 }
                }
                return firing
            }
            return nil
        }
    }
}

/// A small seedable generator (SplitMix64): fault probabilities and jitter are reproducible from
/// `EmulatorConfiguration.chaosSeed`.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var value: UInt64

    init(seed: UInt64) { value = seed }

    mutating func next() -> UInt64 {
        value &+= 0x9E37_79B9_7F4A_7C15
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw from 0 ..< 1 (53 random bits).
    mutating func unitInterval() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
