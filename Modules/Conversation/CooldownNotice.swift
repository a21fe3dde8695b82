import Foundation
import ReceptionCore

/// The composer's wait notice of spec 6.3.5: one per screen, worded by scope, with the remaining time rounded up
/// in the largest unit.
public struct CooldownNotice: Sendable, Hashable {
    /// The scope whose wait the notice describes.
    public var scope: RetryScope
    /// Whole seconds left (at least 1).
    public var secondsLeft: Int

    /// Makes a notice.
    public init(scope: RetryScope, secondsLeft: Int) {
        self.scope = scope
        self.secondsLeft = secondsLeft
    }

    /// The English text, e.g. "Message limit reached, send again in 2 minutes."
    public var text: String {
        let time = Self.relativeTime(seconds: Double(secondsLeft))
        switch scope {
        case .messages: return "Message limit reached, send again \(time)."
        case .uploads: return "Photos can be sent again \(time), text still works."
        case .requests: return "Too many attempts, try again \(time)."
        default: return "Can't connect right now, try again \(time)."
        }
    }

    /// Spec 6.3.5: "in N unit", rounded up in the largest unit: under 60 s seconds, under an hour minutes, else
    /// hours; never less than "1 second". Whole seconds are rounded up first, so 59.5 s reads "in 1 minute".
    public static func relativeTime(seconds: Double) -> String {
        let whole = max(1, Int(seconds.rounded(.up)))
        func phrase(_ count: Int, _ unit: String) -> String { "in \(count) \(unit)\(count == 1 ? "" : "s")" }
        if whole < 60 { return phrase(whole, "second") }
        if whole < 3600 { return phrase((whole + 59) / 60, "minute") }
        return phrase((whole + 3599) / 3600, "hour")
    }
}
