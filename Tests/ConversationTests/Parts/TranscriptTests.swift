import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// `Transcript` alone: the merge rule of spec 7.10 and the window of spec 3.6.
@Suite("TranscriptTests")
struct TranscriptTests {
    private static let start = Date(timeIntervalSince1970: 1_790_000_000)

    private func agent(_ seq: Int64, _ text: String = "hi") -> Message {
        Message(id: "m\(seq)", seq: seq, sender: .agent, text: text, createdAt: Self.start + Double(seq))
    }

    private func own(_ id: String, images: [Data] = []) -> StoredMessage {
        StoredMessage(id: id, sender: .user, text: "mine", createdAt: Self.start + 100, images: images,
                      expectedImageCount: images.count)
    }

    @Test("new messages are appended in seq order and saved; the highest seq is reported")
    func appends() {
        var transcript = Transcript()
        let merge = transcript.merge([agent(2), agent(1)])
        #expect(transcript.messages.map(\.seq) == [1, 2])
        #expect(merge.changed.count == 2)
        #expect(merge.highestSeq == 2)
        #expect(merge.agentReplied)
        let again = transcript.merge([agent(2)])
        #expect(again.changed.isEmpty, "an unchanged message is not saved again")
        #expect(again.highestSeq == 2)
    }

    @Test("spec 7.10: an own message confirmed by client ID keeps its local ID and local photos")
    func confirmsOwn() {
        var transcript = Transcript()
        let photo = Data([1, 2, 3])
        transcript.append(own("c1", images: [photo]))
        let echo = Message(id: "srv1", clientId: "c1", seq: 5, sender: .user, text: "mine", createdAt: Self.start)
        let merge = transcript.merge([echo])
        #expect(merge.completed.map(\.id) == ["c1"])
        #expect(merge.changed.isEmpty, "completing goes through the outbox, not the window save")
        #expect(!merge.agentReplied)
        #expect(transcript["c1"]?.seq == 5)
        #expect(transcript["c1"]?.images == [photo])
    }

    @Test("malformed messages are counted and dropped")
    func malformed() {
        var transcript = Transcript()
        let merge = transcript.merge([agent(0), agent(Limits.maximumSafeSequence + 1),
                                      Message(id: "", seq: 3, sender: .agent, text: "x", createdAt: Self.start)])
        #expect(merge.malformed == 3)
        #expect(transcript.messages.isEmpty)
        #expect(merge.highestSeq == 0)
    }

    @Test("spec 3.6: the window keeps only confirmed messages it holds; unsent ones always stay")
    func window() {
        var transcript = Transcript()
        _ = transcript.merge([agent(1), agent(2), agent(3)])
        transcript.append(own("c1"))
        let dropped = transcript.keepOnly([2, 3])
        #expect(dropped)
        #expect(transcript.messages.map(\.id) == ["m2", "m3", "c1"])
        let none = transcript.keepOnly([2, 3])
        #expect(!none)
    }

    @Test("delivery, attachment IDs, removal and reset")
    func edits() {
        var transcript = Transcript()
        transcript.append(own("c1"))
        transcript.setDelivery([.failed], of: "c1")
        transcript.appendAttachmentID("a1", to: "c1")
        #expect(transcript["c1"]?.delivery == [.failed])
        #expect(transcript["c1"]?.attachmentIds == ["a1"])
        transcript.clearAttachmentIDs(of: "c1")
        #expect(transcript["c1"]?.attachmentIds == [])
        #expect(transcript.remove("c1")?.id == "c1")
        #expect(transcript.remove("c1") == nil)
        transcript.conversation(exists: true, id: "conv")
        #expect(transcript.hasConversation)
        transcript.conversationGone()
        #expect(!transcript.hasConversation)
        #expect(transcript.conversationID == "conv")
        transcript.reset()
        #expect(transcript.conversationID == nil)
    }
}
