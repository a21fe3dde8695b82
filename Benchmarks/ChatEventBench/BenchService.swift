import Foundation
import ReceptionCore

/// The service side of the benchmark's chat: a conversation of numbered agent replies that the opening load
/// returns whole, a stream the benchmark signals, sends that are accepted or refused with a 429 (recorded in the
/// cooldown book, as the transport does), and uploads whose progress moves in `uploadSteps` steps.
actor BenchService: ConversationService {
    let cooldowns: CooldownBook
    let clock: any ReceptionClock
    private var server: [Message] = []
    private var stream: AsyncThrowingStream<StreamSignal, any Error>.Continuation?
    /// The next sends answer 429 with a 30-second wait on the messages scope.
    private var refusedSends = 0
    let uploadSteps = 10

    init(cooldowns: CooldownBook, clock: any ReceptionClock) {
        self.cooldowns = cooldowns
        self.clock = clock
    }

    /// Adds `count` agent replies, one a second before now.
    func addReplies(_ count: Int, text: @Sendable (Int) -> String) {
        for _ in 0..<count {
            let seq = Int64(server.count + 1)
            server.append(Message(
                id: "agent-\(seq)", seq: seq, sender: .agent, text: text(Int(seq)), createdAt: clock.now))
        }
    }

    /// Tells the open stream that there is something new.
    func signalChanged() { stream?.yield(.changed) }
    /// Whether the engine opened the stream.
    var streaming: Bool { stream != nil }
    /// Refuses the next `count` sends with a 429.
    func refuseSends(_ count: Int) { refusedSends += count }

    private var conversation: ConversationSummary {
        ConversationSummary(id: "conv-1", status: .open, unreadForUser: 0, createdAt: clock.now)
    }

    var halt: HaltReason? { nil }
    func isRegistered() async throws(ReceptionError) -> Bool { true }
    func updateDevice(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {}

    func history(limits: Bool) async throws(ReceptionError) -> HistoryResponse {
        HistoryResponse(
            conversation: conversation, messages: server, device: nil, team: nil, boundedRead: true, limits: nil)
    }

    func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage] {
        [MessagesPage(
            messages: server.filter { $0.seq > cursor }, hasMore: false,
            conversation: CompactConversation(id: "conv-1", status: .open), device: nil, team: nil, boundedRead: true)]
    }

    func send(
        clientId: String, text: String, attachmentIds: [String], probe: Bool, allowRegistration: Bool
    ) async throws(ReceptionError) -> SendMessageResponse {
        if refusedSends > 0 {
            refusedSends -= 1
            _ = cooldowns.record(scope: .messages, seconds: 30, now: clock.now)
            throw ReceptionError(code: "rate_limited", status: 429, retryAfter: 30, retryScope: .messages)
        }
        let seq = Int64(server.count + 1)
        let message = Message(
            id: "own-\(seq)", clientId: clientId, seq: seq, sender: .user, text: text,
            attachments: attachmentIds.map { Attachment(id: $0, url: "https://files.test/\($0)", contentType: "image/jpeg") },
            createdAt: clock.now)
        server.append(message)
        return SendMessageResponse(conversation: conversation, message: message)
    }

    func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse {
        ReadResponse(conversationId: conversationId, readSeq: throughSeq, unreadCount: 0)
    }

    func markReadLegacy() async throws(ReceptionError) {}
    func unread(probe: Bool) async throws(ReceptionError) -> UnreadResponse {
        UnreadResponse(hasConversation: true, unreadCount: 0)
    }

    func typing(_ isTyping: Bool) async throws(ReceptionError) {}
    func actionClick(messageId: String) async throws(ReceptionError) {}

    func reserveUpload(
        jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool
    ) async throws(ReceptionError) -> UploadReservation {
        UploadReservation(attachmentId: "photo-\(clientId)-\(index)", uploadUrl: "https://storage.test/\(index)")
    }

    func upload(jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)?)
        async throws(ReceptionError)
    {
        for step in 1...uploadSteps {
            progress?(Double(step) / Double(uploadSteps))
            await Task.yield()
        }
    }

    func attachment(id: String) async throws(ReceptionError) -> Attachment {
        Attachment(id: id, url: "https://files.test/\(id)", contentType: "image/jpeg")
    }

    func teamPhoto(url: URL) async throws(ReceptionError) -> Data { throw ReceptionError(code: "http_error", status: 404) }
    func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data {
        throw ReceptionError(code: "http_error", status: 404)
    }

    func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error> {
        let (events, continuation) = AsyncThrowingStream<StreamSignal, any Error>.makeStream()
        stream = continuation
        return events
    }
}

/// Turns any picked file into a tiny JPEG (the engine reads only its size).
struct BenchImages: ImagePreparing {
    func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x03, 0x00, 0x04, 0x01, 0x01, 0x11, 0x00,
                         0xFF, 0xD9])
        return PreparedPhoto(jpeg: jpeg, width: 4, height: 3, checksum: "bench")
    }
}
