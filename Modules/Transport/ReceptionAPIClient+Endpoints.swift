import Digest
import Foundation
import ReceptionCore

extension ReceptionAPIClient {
    // MARK: Device (3.2)

    /// `PATCH devices/me` with the complete current payload, registering first when allowed (spec 3.2).
    ///
    /// Coalesced: while an update is in flight, callers join it, and if a newer update was asked for meanwhile the
    /// client sends again. A rejected identity token is reported and the same update is sent once more without it,
    /// so token problems never stall support traffic.
    @inline(never) @_optimize(size)
    public func updateDevice(probe: Bool = false, allowRegistration: Bool = false) async throws(ReceptionError) {
        updateRequested += 1
        if let updateTask {
            try await Self.wait(updateTask)
            return
        }
        let task = Task { () async throws -> Void in
            try await self.runUpdates(probe: probe, allowRegistration: allowRegistration)
        }
        updateTask = task
        defer { updateTask = nil }
        try await Self.wait(task)
    }

    @inline(never)
    @_optimize(size) private func runUpdates(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {
        var sent = 0
        while sent < updateRequested {
            sent = updateRequested
            try await sendUpdate(probe: probe, allowRegistration: allowRegistration)
        }
    }

    @inline(never)
    @_optimize(size) private func sendUpdate(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {
        // Registering needs the token first, so a rejection of the staged identity token during registration is
        // handled before the update is built.
        _ = try await token(allowRegistration: allowRegistration, probe: probe)
        var payload = try await hooks.devicePayload()
        do {
            try await applyUpdate(payload, probe: probe)
        } catch {
            guard error.isIdentityTokenRejection, let rejected = payload.identityToken else { throw error }
            await hooks.identityRejected(error, rejected)
            guard error.code != ReceptionError.Code.identityMismatch else { throw error }
            payload = try await hooks.devicePayload()
            if payload.identityToken == rejected { payload.identityToken = nil }
            try await applyUpdate(payload, probe: probe)
        }
    }

    @inline(never)
    @_optimize(size) private func applyUpdate(_ payload: DevicePayload, probe: Bool) async throws(ReceptionError) {
        let body = try ReceptionJSON.encode(payload, failureCode: ReceptionError.Code.invalidDeviceInfo)
        let response = try await perform(Route.updateDevice, Options(body: body, probe: probe))
        let update = try ResponseInterpreter.decode(DeviceUpdateResponse.self, from: response)
        try storeVerifiedUserIdAfterUpdate(update.verifiedUserId)
        await hooks.deviceSynchronised(payload, update.verifiedUserId)
    }

    // MARK: Conversation (3.6–3.13)

    /// `GET conversation` (`?limits=1` for a limit recheck, spec 6.3.6).
    @inline(never)
    @_optimize(size) public func history(limits: Bool = false) async throws(ReceptionError) -> HistoryResponse {
        let response = try await perform(Route.history(limits: limits))
        return try ResponseInterpreter.decode(HistoryResponse.self, from: response)
    }

    /// `GET conversation/messages?after=` following `hasMore` until the last page (spec 3.7). A page that says
    /// `hasMore` without advancing the cursor is `invalid_response` (200), so a faulty server cannot loop us.
    @inline(never)
    @_optimize(size) public func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage] {
        var pages: [MessagesPage] = []
        var after = cursor
        while true {
            let response = try await perform(Route.messages(after: after))
            let page = try ResponseInterpreter.decode(MessagesPage.self, from: response)
            pages.append(page)
            let highest = page.messages.map(\.seq).max() ?? after
            guard page.hasMore == true else { return pages }
            guard highest > after else { throw .invalidResponse(status: response.status) }
            after = highest
        }
    }

    /// `POST conversation/messages` (spec 3.8). A missing `message.clientId` is filled with the one sent.
    @inline(never) @_optimize(size) public func send(
        clientId: String, text: String, attachmentIds: [String], probe: Bool = false, allowRegistration: Bool = false
    ) async throws(ReceptionError) -> SendMessageResponse {
        let body = try ReceptionJSON.encode(SendMessageBody(clientId: clientId, text: text, attachmentIds: attachmentIds))
        let response = try await perform(
            Route.send(withAttachments: !attachmentIds.isEmpty),
            Options(body: body, probe: probe, allowRegistration: allowRegistration))
        var sent = try ResponseInterpreter.decode(SendMessageResponse.self, from: response)
        if sent.message.clientId == nil { sent.message.clientId = clientId }
        return sent
    }

    /// Bounded `POST conversation/read` (spec 3.9), validated: same conversation, `readSeq ≥ throughSeq`,
    /// `readSeq ≤ 2^53 − 1`, `unreadCount ≥ 0`.
    @inline(never) @_optimize(size)
    public func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse {
        guard !conversationId.isEmpty, (1...Limits.maximumSafeSequence).contains(throughSeq) else {
            throw .invalidResponse()
        }
        let body = try ReceptionJSON.encode(ReadRequest(conversationId: conversationId, throughSeq: throughSeq))
        let response = try await perform(Route.read, Options(body: body))
        let read = try ResponseInterpreter.decode(ReadResponse.self, from: response)
        guard read.conversationId == conversationId, read.readSeq >= throughSeq,
              read.readSeq <= Limits.maximumSafeSequence, read.unreadCount >= 0
        else { throw .invalidResponse(status: response.status) }
        return read
    }

    /// Legacy `POST conversation/read` without a body, expecting `{}` (spec 3.9).
    @inline(never) @_optimize(size) public func markReadLegacy() async throws(ReceptionError) {
        let response = try await perform(Route.read)
        _ = try ResponseInterpreter.decode(EmptyObject.self, from: response)
    }

    /// `GET conversation/unread` (spec 3.10). `probe` lets the foreground check of a blocked session through.
    @inline(never)
    @_optimize(size) public func unread(probe: Bool = false) async throws(ReceptionError) -> UnreadResponse {
        let response = try await perform(Route.unread, Options(probe: probe))
        return try ResponseInterpreter.decode(UnreadResponse.self, from: response)
    }

    /// `POST conversation/typing` (spec 3.11).
    @inline(never) @_optimize(size) public func typing(_ isTyping: Bool) async throws(ReceptionError) {
        let response = try await perform(Route.typing, Options(body: try ReceptionJSON.encode(["typing": isTyping])))
        _ = try ResponseInterpreter.decode(EmptyObject.self, from: response)
    }

    /// `POST conversation/action-click` (spec 3.13).
    @inline(never) @_optimize(size) public func actionClick(messageId: String) async throws(ReceptionError) {
        let response = try await perform(
            Route.actionClick, Options(body: try ReceptionJSON.encode(["messageId": messageId])))
        _ = try ResponseInterpreter.decode(EmptyObject.self, from: response)
    }

    /// `GET attachments/<id>` (spec 3.15); the returned `id` must be the one asked for.
    @inline(never) @_optimize(size) public func attachment(id: String) async throws(ReceptionError) -> Attachment {
        let response = try await perform(Route.attachment(id: id))
        let attachment = try ResponseInterpreter.decode(Attachment.self, from: response)
        guard attachment.id == id else { throw .invalidResponse(status: response.status) }
        return attachment
    }

    // MARK: Uploads (3.14)

    /// `POST uploads` for one prepared JPEG, with the checksum and the deterministic request ID.
    @inline(never) @_optimize(size) public func reserveUpload(
        jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool = false
    ) async throws(ReceptionError) -> UploadReservation {
        let checksum = UploadChecksum.checksum(of: jpeg)
        let request = UploadReservationRequest(
            requestId: UploadChecksum.requestID(clientId: clientId, index: index, checksum: checksum),
            contentType: "image/jpeg", bytes: jpeg.count, width: width, height: height, checksum: checksum)
        let response = try await perform(Route.reserveUpload, Options(body: try ReceptionJSON.encode(request), probe: probe))
        let reservation = try ResponseInterpreter.decode(UploadReservation.self, from: response)
        guard let url = URL(string: reservation.uploadUrl), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https"
        else { throw ReceptionError(code: ReceptionError.Code.invalidUploadURL) }
        return reservation
    }

    /// The storage `PUT` (spec 3.14): exactly the returned headers, no Reception headers, 60 s. A 412 while the
    /// headers carry `If-Match` means an earlier PUT already stored the bytes. Storage answers never start a
    /// cooldown; a storage 429's `Retry-After` is only a hint, capped at 300 s.
    @inline(never) @_optimize(size) public func upload(
        jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReceptionError) {
        guard !invalidated else { throw .cancelled }
        guard let url = URL(string: reservation.uploadUrl) else {
            throw ReceptionError(code: ReceptionError.Code.invalidUploadURL)
        }
        let request = HTTPRequest(method: "PUT", url: url, headers: reservation.headers, body: jpeg, timeout: .seconds(60))
        let response: HTTPResponse
        do {
            response = try await deps.transport.send(request, uploadProgress: progress)
        } catch {
            if error.code == ReceptionError.Code.cancelled { throw error }
            throw ReceptionError(code: ReceptionError.Code.uploadFailed, status: 0, transportCode: error.transportCode ?? -1)
        }
        if (200...299).contains(response.status) { return }
        let hasIfMatch = reservation.headers.keys.contains { $0.caseInsensitiveCompare("If-Match") == .orderedSame }
        if response.status == 412, hasIfMatch { return }
        throw ReceptionError(
            code: ReceptionError.Code.uploadFailed, status: response.status,
            retryAfter: response.status == 429 ? RetryAfter.storageHintSeconds(response.header("Retry-After")) : nil)
    }

    /// A team photo link (spec 3.18): plain GET, no Reception headers, 30 s. Over 512 KiB is `image_too_large`
    /// (spec 7.17's per-photo limit); a non-2xx answer is `http_error` with its status (403: the link expired).
    @inline(never) @_optimize(size) public func teamPhoto(url: URL) async throws(ReceptionError) -> Data {
        try await download(url, limit: TeamProfile.maximumPhotoBytes)
    }

    /// An attachment link (spec 3.18): plain GET, no Reception headers, 30 s. Over
    /// `Attachment.maximumDownloadBytes` is `image_too_large`; a non-2xx answer is `http_error` with its status
    /// (403: the link expired, resolve it again with `attachment(id:)`).
    @inline(never) @_optimize(size) public func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data {
        try await download(url, limit: Attachment.maximumDownloadBytes)
    }

    /// A plain GET of a signed link outside `/v1/` (spec 3.18): never gated, never halting, no headers.
    @inline(never) @_optimize(size) private func download(_ url: URL, limit: Int) async throws(ReceptionError) -> Data {
        guard !invalidated else { throw .cancelled }
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw ReceptionError(code: ReceptionError.Code.invalidResponse)
        }
        let response = try await deps.transport.send(
            HTTPRequest(method: "GET", url: url, headers: [:], body: nil, timeout: .seconds(30)), uploadProgress: nil)
        guard !invalidated else { throw .cancelled }
        guard (200...299).contains(response.status) else {
            throw ReceptionError(code: ReceptionError.Code.httpError, status: response.status)
        }
        guard response.body.count <= limit else {
            throw ReceptionError(code: ReceptionError.Code.imageTooLarge, status: response.status)
        }
        return response.body
    }

    // MARK: Logout revocation (3.4), deletion (3.5) and appearance (3.16)

    /// `POST devices/me/logout` for a session secret from the revocation queue (spec 3.4, 7.15): no token, revision
    /// header 0, never gated by a cooldown and never starting one. The service answers 200 even for unknown or
    /// already revoked sessions, so any non-transient error means the entry is done; a 429's `Retry-After` paces
    /// the queue's own retry (`error.retryAfter`).
    @inline(never) @_optimize(size) public func revokeSession(secret: String) async throws(ReceptionError) {
        let body = try ReceptionJSON.encode(["sessionSecret": secret])
        let response = try await perform(Route.logout, Options(body: body))
        _ = try ResponseInterpreter.decode(EmptyObject.self, from: response)
    }

    /// `DELETE devices/me` with a probe (works while halted, ignores cooldowns). Returns `false` when there was
    /// no session secret (nothing to delete on the server). 401 `invalid_app_id` counts as completed (spec 7.15).
    @inline(never) @_optimize(size) public func deleteDevice() async throws(ReceptionError) -> Bool {
        guard let credentials = try SessionCredentials.read(from: deps.secureStore, scope: deps.scope) else { return false }
        try await deleteDevice(secret: credentials.sessionSecret)
        return true
    }

    /// `DELETE devices/me` for a secret the caller read (a deletion that must outlive the session object that
    /// started it: seed 000 lets a late answer complete after a logout). An unavailable App ID — 401
    /// `invalid_app_id` or 403 `app_disabled` — counts as done (seed 000: "the App ID is unavailable").
    @inline(never) @_optimize(size) public func deleteDevice(secret: String) async throws(ReceptionError) {
        let body = try ReceptionJSON.encode(["sessionSecret": secret])
        do {
            let response = try await perform(Route.deleteDevice, Options(body: body, probe: true))
            _ = try ResponseInterpreter.decode(EmptyObject.self, from: response)
        } catch {
            if error.status == 401, error.code == ReceptionError.Code.invalidAppID { return }
            if error.status == 403, error.code == ReceptionError.Code.appDisabled { return }
            throw error
        }
    }

    /// `GET appearance` with `If-None-Match` when an ETag is held (spec 3.16). A 304 counts only for a conditional
    /// request and may bring a new ETag. Bodies over 65,536 bytes are `appearance_too_large`; a wrong schema or
    /// revision is `invalid_appearance`; other statuses keep the envelope's code or are `appearance_unavailable`.
    @inline(never)
    @_optimize(size) public func appearance(etag: String?) async throws(ReceptionError) -> AppearanceFetch {
        var options = Options()
        if let etag { options.extraHeaders["If-None-Match"] = etag }
        let response: HTTPResponse
        do {
            response = try await perform(Route.appearance, options)
        } catch {
            if error.code == ReceptionError.Code.httpError {
                throw ReceptionError(
                    code: ReceptionError.Code.appearanceUnavailable, status: error.status, retryAfter: error.retryAfter)
            }
            throw error
        }
        if response.status == 304 {
            guard etag != nil else {
                throw ReceptionError(code: ReceptionError.Code.appearanceUnavailable, status: 304)
            }
            return .unchanged(etag: response.header("ETag"))
        }
        guard response.status == 200 else {
            throw ReceptionError(code: ReceptionError.Code.appearanceUnavailable, status: response.status)
        }
        guard response.body.count <= AppearanceFetch.maximumBytes else {
            throw ReceptionError(code: ReceptionError.Code.appearanceTooLarge, status: 200)
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let schema = object["schemaVersion"] as? Int, schema == 1,
              let revision = object["revision"] as? Int, revision >= 0,
              let appearance = object["appearance"] as? [String: Any],
              let appearanceData = try? JSONSerialization.data(withJSONObject: appearance, options: [.sortedKeys])
        else { throw ReceptionError(code: ReceptionError.Code.invalidAppearance, status: 200) }
        return .updated(appearance: appearanceData, revision: revision, etag: response.header("ETag"))
    }

    // MARK: Helpers

    @inline(never)
    @_optimize(size) private static func wait(_ task: Task<Void, any Error>) async throws(ReceptionError) {
        do {
            try await task.value
        } catch let error as ReceptionError {
            throw error
        } catch {
            throw .cancelled
        }
    }
}

/// Spec 3.14: the upload checksum and the deterministic reservation ID.
public enum UploadChecksum {
    /// Standard Base64 (with padding) of the SHA-256 of the JPEG bytes.
    @inline(never) @_optimize(size) public static func checksum(of jpeg: Data) -> String {
        Base64.encode(SHA256.hash(jpeg))
    }

    /// SHA-256 of `"<clientId>:<index>:<checksum>"`, first 16 bytes, version nibble 5, variant bits 10, as an
    /// upper-case hyphenated UUID: every retry of the same photo of the same message reuses the reservation.
    @inline(never)
    @_optimize(size) public static func requestID(clientId: String, index: Int, checksum: String) -> String {
        var bytes = Array(SHA256.hash(Array("\(clientId):\(index):\(checksum)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        // 8-4-4-4-12 hex digits; a loop, not a `map` of ranges and a `joined` (Docs/Footprint.md).
        var id = ""
        for (offset, digit) in Hex.encode(bytes).uppercased().enumerated() {
            if offset == 8 || offset == 12 || offset == 16 || offset == 20 { id.append("-") }
            id.append(digit)
        }
        return id
    }
}
extension ReceptionAPIClient: ConversationService {}
