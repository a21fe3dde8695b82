/// Sending-permission flags from `GET conversation` and `GET conversation/messages` (spec 4.6, 7.7).
/// A present key sets or clears its state; an absent key leaves the state unchanged.
public struct DeviceFlags: Codable, Hashable, Sendable {
    /// `true`: the team blocked this device; it may read but not send.
    public var blocked: Bool?
    /// `true`: the app accepts only verified users and this session is not verified.
    public var verificationRequired: Bool?

    /// Makes flags; `nil` means "not reported".
    @inline(never) @_optimize(size) public init(blocked: Bool? = nil, verificationRequired: Bool? = nil) {
        self.blocked = blocked
        self.verificationRequired = verificationRequired
    }

    /// Hashes whether the device is blocked only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(blocked) }
}

/// One stage of the unread polling schedule (spec 4.7): while the last activity is younger than `forMinutes`, poll
/// every `everySeconds`; `everySeconds <= 0` disables polling.
public struct UnreadPollingStage: Codable, Hashable, Sendable {
    /// The age bound of the last activity, in minutes.
    public var forMinutes: Int
    /// The polling interval in seconds while the bound holds.
    public var everySeconds: Int

    /// Makes a stage.
    @inline(never) @_optimize(size) public init(forMinutes: Int, everySeconds: Int) {
        self.forMinutes = forMinutes
        self.everySeconds = everySeconds
    }

    /// Spec 7.11: the stages used when the service sends none.
    public static let defaults: [UnreadPollingStage] = [
        UnreadPollingStage(forMinutes: 1, everySeconds: 15),
        UnreadPollingStage(forMinutes: 10, everySeconds: 60),
        UnreadPollingStage(forMinutes: 1440, everySeconds: 600),
    ]

    /// Spec 4.7: the interval for a last activity `ageSeconds` old, checking stages in order; `nil` = no polling.
    @inline(never) @_optimize(size)
    public static func interval(forActivityAge ageSeconds: Double, stages: [UnreadPollingStage]) -> Int? {
        for stage in stages where ageSeconds < Double(stage.forMinutes) * 60 {
            return stage.everySeconds > 0 ? stage.everySeconds : nil
        }
        return nil
    }

    /// Hashes the length of the stage only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(forMinutes) }
}

extension DeviceFlags {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        blocked = try c.decodeIfPresent(Bool.self, forKey: "blocked")
        verificationRequired = try c.decodeIfPresent(Bool.self, forKey: "verificationRequired")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(blocked, forKey: "blocked")
        try c.encodeIfPresent(verificationRequired, forKey: "verificationRequired")
    }
}

extension UnreadPollingStage {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        forMinutes = try c.decode(Int.self, forKey: "forMinutes")
        everySeconds = try c.decode(Int.self, forKey: "everySeconds")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(forMinutes, forKey: "forMinutes")
        try c.encode(everySeconds, forKey: "everySeconds")
    }
}
