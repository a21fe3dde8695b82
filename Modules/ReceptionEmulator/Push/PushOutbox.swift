/// The pushes the service produces (seed 002): agent replies, review cards, offer cards when offer pushes are on, and
/// the dashboard's "Send test". Each is written to the push outbox; with a saved APNs key it is also handed to the
/// provider (``PushDelivery``), which records every attempt on the entry.
extension EmulatorState {
    /// Queues the push for a just-stored agent message, if the device can receive one.
    func queuePush(for message: NewMessage, photoCount: Int, conversationId: String, deviceId: String) throws {
        guard pushAvailable, message.kind != "PAYWALL" || settings.push.offerPushes,
            let device = try db.row("SELECT \(Columns.devices) FROM devices WHERE id = ?", [.text(deviceId)]),
            let token = device.text("push_token")
        else { return }
        let preview = PushPayload.preview(
            text: message.text, photoCount: photoCount, kind: message.kind, buttonLabel: message.buttonLabel,
            showMessage: settings.push.showMessage, texts: Self.pushTexts(device))
        try writePush(preview: preview, device: device, token: token, conversationId: conversationId, isTest: false)
    }

    /// `POST /admin/devices/<id>/test-push` (seed 002 "Send test"): a push with the saved content settings for the
    /// device's existing conversation, without creating a chat message. 409 `push_not_configured`,
    /// `no_push_token` or `no_conversation` when the device is not eligible. Returns the outbox entry.
    func queueTestPush(deviceId: String) throws -> JSONValue {
        guard pushAvailable else {
            throw APIError(409, "push_not_configured", "The app has no APNs credentials saved.")
        }
        guard let device = try db.row("SELECT \(Columns.devices) FROM devices WHERE id = ?", [.text(deviceId)]),
            let token = device.text("push_token")
        else { throw APIError(409, "no_push_token", "This device has no push token.") }
        guard let conversation = try conversationRecord(deviceId: deviceId) else {
            throw APIError(409, "no_conversation", "A test push needs the device's existing conversation.")
        }
        let texts = Self.pushTexts(device)
        let preview = PushPayload.preview(
            text: texts.testMessage, photoCount: 0, kind: "TEXT", buttonLabel: nil,
            showMessage: settings.push.showMessage, texts: texts)
        return try writePush(
            preview: preview, device: device, token: token, conversationId: conversation.id, isTest: true)
    }

    /// Renders `preview` with the saved templates and writes the payload for `device`; returns the outbox entry.
    @discardableResult
    private func writePush(preview: String, device: SQLRow, token: String, conversationId: String, isTest: Bool)
        throws -> JSONValue
    {
        let (title, body) = PushPayload.render(settings.push, preview: preview, texts: Self.pushTexts(device))
        // A device that never reported updatesAppBadge counts as true (spec 0.9).
        let badge =
            device.bool("updates_app_badge") == false
            ? nil : try unreadCount(conversationId: conversationId, readSeq: device.int("read_seq") ?? 0)
        let payload = PushPayload.payload(
            title: title, body: body, badge: badge, sound: settings.push.sound, conversationId: conversationId)
        let credentials = apnsCredentials
        let text = payload.serialized()
        let deviceId = device.text("id") ?? ""
        let environment = device.text("push_environment")
        let stored = try db.row(
            """
            INSERT INTO push_outbox (device_id, push_token, push_environment, payload, created_at, is_test, delivery)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING \(Columns.pushOutbox)
            """,
            [
                .text(deviceId), .text(token), .optional(environment), .text(text), .double(now), .bool(isTest),
                .text(credentials == nil ? PushDeliveryState.outbox : PushDeliveryState.queued),
            ])
        if let credentials, let id = stored?.int("id") {
            pushQueued(
                PushJob(
                    outboxId: id, deviceId: deviceId, deviceToken: token, environment: environment,
                    payload: Array(text.utf8), collapseId: isTest ? "reception-test" : nil, credentials: credentials))
        }
        return stored.map(Self.pushJSON) ?? .null
    }

    /// The texts of the device's last reported app language, else of its locale, else English (seed 002).
    static func pushTexts(_ device: SQLRow) -> PushTexts {
        let locale = (try? JSONValue.parse(device.text("info") ?? "{}"))?["locale"]?.stringValue
        return PushTexts.texts(for: PushLanguage.resolve(language: device.text("language"), locale: locale))
    }

    /// One outbox entry as the admin API shows it.
    static func pushJSON(_ row: SQLRow) -> JSONValue {
        [
            "id": .int(row.int("id") ?? 0), "deviceId": .optional(row.text("device_id")),
            "pushToken": .optional(row.text("push_token")), "pushEnvironment": .optional(row.text("push_environment")),
            "payload": (try? JSONValue.parse(row.text("payload") ?? "")) ?? .null,
            "createdAt": .string(InternetDate.string(row.double("created_at") ?? 0)),
            "test": .bool(row.bool("is_test") ?? false),
            "delivery": .string(row.text("delivery") ?? PushDeliveryState.outbox), "apnsId": .optional(row.text("apns_id")),
            "attempts": (try? JSONValue.parse(row.text("attempts") ?? "[]")) ?? .array([]),
        ]
    }
}
