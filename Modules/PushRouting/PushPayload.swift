/// Recognition of Reception's push payloads (spec 7.16, seed 002): a payload is Reception's when
/// `userInfo["reception"]` is an object whose `conversationId` is a non-empty string. Anything else — a missing or
/// non-object `reception`, a number, an empty string, an unrelated payload — is not.
public enum PushPayload {
    /// The top-level marker key of support notifications.
    public static let markerKey = "reception"

    /// The `reception.conversationId` of a recognised payload, or `nil`.
    ///
    /// The ID is only the recognition marker: it never selects a conversation (seed 002).
    @inline(never) @_optimize(size) public static func conversationId(in userInfo: [AnyHashable: Any]) -> String? {
        guard let marker = userInfo[AnyHashable(markerKey)] else { return nil }
        let value: Any?
        if let object = marker as? [String: Any] {
            value = object["conversationId"]
        } else if let object = marker as? [AnyHashable: Any] {
            value = object[AnyHashable("conversationId")]
        } else {
            return nil
        }
        guard let id = value as? String, !id.isEmpty else { return nil }
        return id
    }

    /// Whether `userInfo` is a recognised support payload.
    @inline(never) @_optimize(size) public static func isSupportNotification(_ userInfo: [AnyHashable: Any]) -> Bool {
        conversationId(in: userInfo) != nil
    }
}
