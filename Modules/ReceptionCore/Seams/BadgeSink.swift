/// Where the SDK writes the app-icon badge (spec 7.11). The Apple implementation sets the application's badge count;
/// tests use `RecordingBadgeSink` from `ReceptionTesting`.
///
/// Seed 004: badge-setting errors are ignored by the SDK, so a write cannot fail from the caller's point of view.
/// The unread monitor serialises writes: an implementation never sees two calls at once.
public protocol BadgeSink: Sendable {
    /// Sets the app-icon badge to `count` (never negative; `0` hides it).
    func setBadge(_ count: Int) async
}
