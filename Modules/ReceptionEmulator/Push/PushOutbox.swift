/// Writing pushes for agent replies to the outbox (seed 002: the backend pushes agent replies, review cards, and
/// offer cards when offer pushes are on).
extension EmulatorState {
    /// Queues the push for a just-stored agent message, if the device can receive one.
    func queuePush(for message: NewMessage, photoCount: Int, conversationId: String, deviceId: String) throws {
        guard settings.push.configured, message.kind != "PAYWALL" || settings.push.offerPushes,
            let device = try db.row("SELECT * FROM devices WHERE id = ?", [.text(deviceId)]),
            let token = device.text("push_token")
        else { return }
        let preview = PushPayload.preview(
            text: message.text, photoCount: photoCount, kind: message.kind, buttonLabel: message.buttonLabel,
            showMessage: settings.push.showMessage)
        let (title, body) = PushPayload.render(settings.push, preview: preview)
        // A device that never reported updatesAppBadge counts as true (spec 0.9).
        let badge =
            device.bool("updates_app_badge") == false
            ? nil : try unreadCount(conversationId: conversationId, readSeq: device.int("read_seq") ?? 0)
        let payload = PushPayload.payload(
            title: title, body: body, badge: badge, sound: settings.push.sound, conversationId: conversationId)
        try db.query(
            "INSERT INTO push_outbox (device_id, push_token, push_environment, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(deviceId), .text(token), .optional(device.text("push_environment")), .text(payload.serialized()), .double(now)])
    }
}
