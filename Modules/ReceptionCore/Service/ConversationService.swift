import Foundation

/// The service operations the chat engine, the unread monitor and the facade need, as a protocol so those modules
/// never import `Transport` (Docs/ARCHITECTURE.md). `Transport.ReceptionAPIClient` is the implementation; a host
/// or a test may bring another.
///
/// Every call follows spec 6.1: cooldown admission, token, halt check, one renewal after 401 `unauthorized`.
/// Failures are `ReceptionError`s with the codes of spec 5.
public protocol ConversationService: Sendable {
    /// The session's halt state (spec 6.4).
    var halt: HaltReason? { get async }
    /// Whether a session secret is stored (throws when the secure store cannot answer).
    func isRegistered() async throws(ReceptionError) -> Bool
    /// `PATCH devices/me`, registering first when allowed (spec 3.2); coalesced.
    func updateDevice(probe: Bool, allowRegistration: Bool) async throws(ReceptionError)
    /// `GET conversation[?limits=1]` (spec 3.6).
    func history(limits: Bool) async throws(ReceptionError) -> HistoryResponse
    /// `GET conversation/messages?after=` following `hasMore` (spec 3.7).
    func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage]
    /// `POST conversation/messages` (spec 3.8).
    func send(
        clientId: String, text: String, attachmentIds: [String], probe: Bool, allowRegistration: Bool
    ) async throws(ReceptionError) -> SendMessageResponse
    /// Bounded `POST conversation/read` (spec 3.9).
    func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse
    /// Legacy `POST conversation/read` (spec 3.9).
    func markReadLegacy() async throws(ReceptionError)
    /// `GET conversation/unread` (spec 3.10).
    func unread(probe: Bool) async throws(ReceptionError) -> UnreadResponse
    /// `POST conversation/typing` (spec 3.11).
    func typing(_ isTyping: Bool) async throws(ReceptionError)
    /// `POST conversation/action-click` (spec 3.13).
    func actionClick(messageId: String) async throws(ReceptionError)
    /// `POST uploads` for one prepared JPEG (spec 3.14).
    func reserveUpload(
        jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool
    ) async throws(ReceptionError) -> UploadReservation
    /// The storage `PUT` of one photo (spec 3.14).
    func upload(jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)?)
        async throws(ReceptionError)
    /// `GET attachments/<id>` (spec 3.15).
    func attachment(id: String) async throws(ReceptionError) -> Attachment
    /// A team photo link (spec 3.18): a plain GET without Reception headers, 30 s. Photos over 512 KiB are
    /// `image_too_large`; 403 (an expired link) and other non-2xx answers are `http_error` with the status.
    func teamPhoto(url: URL) async throws(ReceptionError) -> Data
    /// An attachment link (spec 3.18): a plain GET without Reception headers, 30 s. Bodies over
    /// `Attachment.maximumDownloadBytes` are `image_too_large`; 403 (an expired link) and other non-2xx answers are
    /// `http_error` with the status.
    func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data
    /// `GET conversation/events` (spec 3.12): the signals of one open stream.
    func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error>
}
