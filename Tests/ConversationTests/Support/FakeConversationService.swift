import Foundation
import ReceptionCore

/// A scripted `ConversationService` that behaves like a small idempotent server: it stores messages by client ID,
/// numbers them, records every call, and fails, holds or rate-limits when a test says so. A scripted 429 or scoped
/// 503 is recorded into the cooldown book, as the real transport does.
actor FakeConversationService: ConversationService {
    let cooldowns: CooldownBook
    let clock: any ReceptionClock
    var haltReason: HaltReason?
    var registered: Bool
    private(set) var calls: [String] = []
    private(set) var server: [Message] = []
    private var nextSeq: Int64 = 1
    var conversationExists: Bool
    /// Failures for the next calls of an operation ("send", "updateDevice", "history", "reserve", "upload",
    /// "messages", "events", "read"), consumed in order.
    private var failures: [String: [ReceptionError]] = [:]
    /// Operations whose calls wait until `release` is called.
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    var extraHistory: [Message] = []
    var device: DeviceFlags?
    var boundedRead: Bool? = true
    /// The team list history answers and pages carry (`nil`: none).
    var team: [TeamMember]?
    func setTeam(_ members: [TeamMember]?) { team = members }
    /// Team photo bytes by link; a link without bytes answers 403 (an expired link).
    var teamPhotos: [URL: Data] = [:]
    func setTeamPhoto(_ data: Data?, at url: URL) { teamPhotos[url] = data }
    /// Attachment photo bytes by link; a link without bytes answers 403 (an expired link).
    var attachmentPhotos: [URL: Data] = [:]
    func setAttachmentPhoto(_ data: Data?, at url: URL) { attachmentPhotos[url] = data }
    var limits: LimitValues?
    /// The unread count read answers and unread GETs report.
    var unreadCountValue = 0
    func setUnreadCount(_ value: Int) { unreadCountValue = value }
    private var streamContinuations: [AsyncThrowingStream<StreamSignal, any Error>.Continuation] = []
    private(set) var uploadProgressCalls = 0
    /// Sends that commit on the "server" and then lose their answer (a dropped connection).
    var dropAfterCommit = 0
    func dropNextSends(_ count: Int) { dropAfterCommit += count }

    init(cooldowns: CooldownBook, clock: any ReceptionClock, registered: Bool = true, conversationExists: Bool = false) {
        self.cooldowns = cooldowns
        self.clock = clock
        self.registered = registered
        self.conversationExists = conversationExists
    }

    var halt: HaltReason? { haltReason }

    func fail(_ operation: String, with errors: ReceptionError...) { failures[operation, default: []] += errors }
    func hold(_ operation: String) { held.insert(operation) }
    func release(_ operation: String) {
        held.remove(operation)
        for continuation in waiting[operation] ?? [] { continuation.resume() }
        waiting[operation] = []
    }
    func waitingCount(_ operation: String) -> Int { waiting[operation]?.count ?? 0 }
    func setHalt(_ reason: HaltReason?) { haltReason = reason }
    func setDevice(_ flags: DeviceFlags?) { device = flags }
    func setLimits(_ values: LimitValues?) { limits = values }
    func setBoundedRead(_ value: Bool?) { boundedRead = value }
    func setRegistered(_ value: Bool) { registered = value }

    /// Adds an agent reply on the "server".
    @discardableResult
    func agentReply(_ text: String) -> Message {
        let message = Message(
            id: "agent-\(nextSeq)", seq: nextSeq, sender: .agent, text: text, createdAt: clock.now)
        nextSeq += 1
        server.append(message)
        conversationExists = true
        return message
    }

    /// Pages the next polls return instead of the server's newer messages, in order (a misbehaving server).
    private var scriptedPages: [[Message]] = []
    func scriptNextPoll(_ messages: [Message]) { scriptedPages.append(messages) }

    /// Appends a raw message (also malformed ones) to what history and polls return.
    func inject(_ message: Message) { extraHistory.append(message) }

    func count(_ prefix: String) -> Int { calls.filter { $0.hasPrefix(prefix) }.count }
    func serverCount(clientId: String) -> Int { server.filter { $0.clientId == clientId }.count }

    private func step(_ operation: String, _ detail: String = "") async throws(ReceptionError) {
        calls.append(detail.isEmpty ? operation : "\(operation):\(detail)")
        if held.contains(operation) {
            await withCheckedContinuation { continuation in waiting[operation, default: []].append(continuation) }
        }
        if var list = failures[operation], !list.isEmpty {
            let error = list.removeFirst()
            failures[operation] = list
            if error.code == "pass" { return }
            if error.status == 429 || error.status == 503, let scope = error.retryScope, let seconds = error.retryAfter {
                cooldowns.record(scope: scope, seconds: seconds, now: clock.now)
            }
            if error.code == ReceptionError.Code.blocked { haltReason = .blocked }
            throw error
        }
    }

    func isRegistered() async throws(ReceptionError) -> Bool { registered }

    func updateDevice(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {
        try await step("updateDevice", allowRegistration ? "register" : "")
        if !registered {
            guard allowRegistration else { throw ReceptionError(code: ReceptionError.Code.chatNotStarted) }
            registered = true
        }
    }

    func history(limits: Bool) async throws(ReceptionError) -> HistoryResponse {
        try await step("history", limits ? "limits" : "")
        return HistoryResponse(
            conversation: conversationExists ? summary : nil, messages: Array((server + extraHistory).suffix(50)),
            device: device, team: team, boundedRead: boundedRead, limits: limits ? self.limits : nil)
    }

    func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage] {
        try await step("messages", "\(cursor)")
        let newer = scriptedPages.isEmpty
            ? (server + extraHistory).filter { $0.seq > cursor } : scriptedPages.removeFirst()
        return [MessagesPage(
            messages: newer, hasMore: false,
            conversation: conversationExists ? CompactConversation(id: "conv-1", status: .open) : nil,
            device: device, team: team, boundedRead: boundedRead)]
    }

    private var summary: ConversationSummary {
        ConversationSummary(id: "conv-1", status: .open, unreadForUser: 0, createdAt: clock.now)
    }

    func send(
        clientId: String, text: String, attachmentIds: [String], probe: Bool, allowRegistration: Bool
    ) async throws(ReceptionError) -> SendMessageResponse {
        try await step("send", clientId)
        if haltReason != nil {
            guard probe else { throw ReceptionError(code: ReceptionError.Code.sessionHalted) }
            haltReason = nil
        }
        if let existing = server.first(where: { $0.clientId == clientId }) {
            return SendMessageResponse(conversation: summary, message: existing)
        }
        defer { if dropAfterCommit > 0 { dropAfterCommit -= 1 } }
        let attachments = attachmentIds.map { Attachment(id: $0, url: "https://files.test/\($0)", contentType: "image/jpeg") }
        let message = Message(
            id: "server-\(nextSeq)", clientId: clientId, seq: nextSeq, sender: .user, text: text,
            attachments: attachments, createdAt: clock.now)
        nextSeq += 1
        server.append(message)
        conversationExists = true
        if dropAfterCommit > 0 { throw .connectionFailed() }
        return SendMessageResponse(conversation: summary, message: message)
    }

    func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse {
        try await step("read", "\(throughSeq)")
        return ReadResponse(conversationId: conversationId, readSeq: throughSeq, unreadCount: unreadCountValue)
    }

    func markReadLegacy() async throws(ReceptionError) { try await step("readLegacy") }

    func unread(probe: Bool) async throws(ReceptionError) -> UnreadResponse {
        try await step("unread", probe ? "probe" : "")
        if haltReason != nil {
            guard probe else { throw ReceptionError(code: ReceptionError.Code.sessionHalted) }
            haltReason = nil
        }
        return UnreadResponse(hasConversation: conversationExists, unreadCount: unreadCountValue)
    }

    func typing(_ isTyping: Bool) async throws(ReceptionError) { try await step("typing", "\(isTyping)") }

    func actionClick(messageId: String) async throws(ReceptionError) { try await step("actionClick") }

    func reserveUpload(
        jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool
    ) async throws(ReceptionError) -> UploadReservation {
        try await step("reserve", "\(clientId)#\(index)")
        return UploadReservation(attachmentId: "att-\(clientId.prefix(8))-\(index)", uploadUrl: "https://storage.test/\(index)")
    }

    func upload(jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)?)
        async throws(ReceptionError)
    {
        try await step("upload", reservation.attachmentId)
        progress?(0.5)
        uploadProgressCalls += 1
    }

    func attachment(id: String) async throws(ReceptionError) -> Attachment {
        try await step("attachment")
        return Attachment(id: id, url: "https://files.test/\(id)", contentType: "image/jpeg")
    }

    func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data {
        try await step("attachmentPhoto", url.absoluteString)
        guard let data = attachmentPhotos[url] else {
            throw ReceptionError(code: ReceptionError.Code.httpError, status: 403)
        }
        return data
    }

    func teamPhoto(url: URL) async throws(ReceptionError) -> Data {
        try await step("teamPhoto", url.absoluteString)
        guard let data = teamPhotos[url] else { throw ReceptionError(code: ReceptionError.Code.httpError, status: 403) }
        return data
    }

    func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error> {
        try await step("events")
        let (stream, continuation) = AsyncThrowingStream<StreamSignal, any Error>.makeStream()
        streamContinuations.append(continuation)
        return stream
    }

    /// Sends a signal on the newest open stream.
    func signal(_ signal: StreamSignal) { streamContinuations.last?.yield(signal) }
    /// Ends the newest stream (a drop).
    func dropStream() { streamContinuations.last?.finish() }
    var openStreams: Int { streamContinuations.count }
}
