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
    @_optimize(size) public init(scope: RetryScope, secondsLeft: Int) {
        self.scope = scope
        self.secondsLeft = secondsLeft
    }

    /// The English text, e.g. "Message limit reached, send again in 2 minutes." (`ChatTexts.cooldown(_:)` gives
    /// it in the chat language.)
    @_optimize(size) public var text: String { ChatTexts.english.cooldown(self) }

    /// Spec 6.3.5's relative time in English, e.g. "in 3 minutes" (see `ChatTexts.relativeTime(seconds:)`).
    @_optimize(size)
    public static func relativeTime(seconds: Double) -> String { ChatTexts.english.relativeTime(seconds: seconds) }

    /// Hashes the seconds left only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(secondsLeft) }
}
