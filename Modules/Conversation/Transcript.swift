import Foundation
import ReceptionCore

/// The chat as the engine knows it (spec 7.10, 3.6): the messages in list order, whether the service has a
/// conversation for this device, and its ID. The merge rule lives here; what the merge means for the outbox and
/// the store comes back as a `Merge` for the engine to apply.
struct Transcript: Sendable {
    /// What a merge changed.
    struct Merge: Sendable {
        /// Confirmed messages that are new or changed: saved to the window.
        var changed: [StoredMessage] = []
        /// Own unconfirmed messages the service confirmed, by local ID, in the order they were matched.
        var completed: [StoredMessage] = []
        /// The highest valid `seq` in the answer (0 when none).
        var highestSeq: Int64 = 0
        /// A new agent message arrived (it ends the typing indicator).
        var agentReplied = false
        /// Messages dropped as malformed (seq outside 1…2^53−1, empty ID).
        var malformed = 0
        /// The photos of `completed` messages this device uploaded, by the attachment IDs the service confirmed
        /// them under: the engine keeps their bytes, so a photo just sent is never downloaded (issue 39).
        var uploadedPhotos: [UploadedPhoto] = []
    }

    /// A prepared JPEG this device uploaded and the attachment ID the service confirmed it as.
    struct UploadedPhoto: Sendable, Equatable {
        var attachmentID: String
        var jpeg: Data

        /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
        /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
        @inline(never) @_optimize(size) static func == (lhs: UploadedPhoto, rhs: UploadedPhoto) -> Bool {
            lhs.attachmentID == rhs.attachmentID && lhs.jpeg == rhs.jpeg
        }
    }

    /// The messages in list order.
    private(set) var messages: [StoredMessage] = []
    /// The service has a conversation for this device.
    private(set) var hasConversation = false
    /// The conversation's ID, once an answer named it.
    private(set) var conversationID: String?

    /// The position of the message with local ID `id`.
    @_optimize(size) func index(of id: String) -> Int? { messages.firstIndex { $0.id == id } }

    /// The message with local ID `id`.
    @_optimize(size) subscript(id: String) -> StoredMessage? { index(of: id).map { messages[$0] } }

    /// The cached window at launch.
    @_optimize(size) mutating func restore(_ window: [StoredMessage], hasConversation: Bool) {
        messages = window
        self.hasConversation = hasConversation
    }

    /// What an answer said about the conversation: it exists (with `id`, when named) or not.
    @_optimize(size) mutating func conversation(exists: Bool, id: String?) {
        hasConversation = exists
        conversationID = id
    }

    /// Spec 3.12: the stream answered `no_conversation`.
    @_optimize(size) mutating func conversationGone() { hasConversation = false }

    /// A new own message (the outbox row exists).
    @_optimize(size) mutating func append(_ message: StoredMessage) { messages.append(message) }

    /// Removes an own message; returns it.
    @_optimize(size) mutating func remove(_ id: String) -> StoredMessage? {
        guard let index = index(of: id) else { return nil }
        return messages.remove(at: index)
    }

    /// Sets the delivery flags of message `id`.
    @_optimize(size) mutating func setDelivery(_ flags: DeliveryFlags, of id: String) {
        if let index = index(of: id) { messages[index].delivery = flags }
    }

    /// Records an uploaded photo's attachment ID on message `id`.
    @_optimize(size) mutating func appendAttachmentID(_ attachmentID: String, to id: String) {
        if let index = index(of: id) { messages[index].attachmentIds.append(attachmentID) }
    }

    /// Spec 3.8: the service refused the attachments; they are uploaded again.
    @_optimize(size) mutating func clearAttachmentIDs(of id: String) {
        if let index = index(of: id) { messages[index].attachmentIds = [] }
    }

    /// Spec 3.15: a resolved attachment replaces the copy of every message that carries it (the dimensions the
    /// message had stay when the answer omits them); returns the changed messages.
    @inline(never) @_optimize(size) mutating func replaceAttachment(_ attachment: Attachment) -> [StoredMessage] {
        var changed: [StoredMessage] = []
        for index in messages.indices {
            guard let position = messages[index].attachments.firstIndex(where: { $0.id == attachment.id }) else { continue }
            let old = messages[index].attachments[position]
            var fresh = attachment
            fresh.width = fresh.width ?? old.width
            fresh.height = fresh.height ?? old.height
            guard fresh != old else { continue }
            messages[index].attachments[position] = fresh
            changed.append(messages[index])
        }
        return changed
    }

    /// Spec 3.6: drops every confirmed message whose `seq` is not in `window`; returns whether any went.
    @inline(never) @_optimize(size) mutating func keepOnly(_ window: Set<Int64>) -> Bool {
        let before = messages.count
        messages.removeAll { message in message.seq.map { !window.contains($0) } ?? false }
        return messages.count != before
    }

    /// Merges service messages (spec 7.10): an existing message with the same `seq`, or whose local ID or client
    /// ID equals the incoming client ID, is replaced in place keeping its local ID (and its local photos and saved
    /// IDs unless confirmed with attachments); otherwise the message is appended.
    @inline(never) @_optimize(size) mutating func merge(_ incoming: [Message]) -> Merge {
        var merge = Merge()
        for message in incoming {
            guard (1...Limits.maximumSafeSequence).contains(message.seq), !message.id.isEmpty else {
                merge.malformed += 1
                continue
            }
            merge.highestSeq = max(merge.highestSeq, message.seq)
            let match = messages.firstIndex { local in
                if local.seq == message.seq { return true }
                if let clientId = message.clientId, local.id == clientId { return true }
                return local.isConfirmed && local.id == message.id
            }
            guard let match else {
                let stored = StoredMessage(confirmed: message)
                messages.append(stored)
                merge.changed.append(stored)
                if message.sender == .agent { merge.agentReplied = true }
                continue
            }
            let local = messages[match]
            var merged = StoredMessage(confirmed: message, localID: local.id)
            if message.attachments.isEmpty {
                merged.images = local.images
                merged.attachmentIds = local.attachmentIds
                merged.expectedImageCount = local.expectedImageCount
            }
            if merged == local { continue }
            if local.isConfirmed {
                merge.changed.append(merged)
            } else {
                merge.completed.append(merged)
                merge.uploadedPhotos += Self.uploadedPhotos(of: local, confirmedAs: message)
            }
            messages[match] = merged
        }
        messages = StoredMessage.inListOrder(messages)
        return merge
    }

    /// The uploaded JPEGs of `local` that `confirmed` carries: matched by the attachment ID each upload's
    /// reservation gave (`attachmentIds[i]` is the ID of `images[i]`), never by position in the answer, so an
    /// attachment the service added, dropped or reordered gets no wrong bytes.
    @inline(never) @_optimize(size)
    static func uploadedPhotos(of local: StoredMessage, confirmedAs confirmed: Message) -> [UploadedPhoto] {
        confirmed.attachments.compactMap { attachment in
            guard let index = local.attachmentIds.firstIndex(of: attachment.id), index < local.images.count else {
                return nil
            }
            return UploadedPhoto(attachmentID: attachment.id, jpeg: local.images[index])
        }
    }

    /// Spec 7.12: a chat reset starts an empty chat without a conversation.
    @inline(never) @_optimize(size) mutating func reset() {
        messages = []
        hasConversation = false
        conversationID = nil
    }
}
