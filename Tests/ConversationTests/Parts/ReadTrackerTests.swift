import Testing
@testable import Conversation

/// `ReadTracker` alone (spec 3.9, 7.11).
@Suite("ReadTrackerTests")
struct ReadTrackerTests {
    @Test("spec 3.9: throughSeq never goes below what was reported for the conversation")
    func throughNeverLowers() {
        var reads = ReadTracker()
        let targets = [
            reads.boundedTarget(conversationID: "c1", seqs: []),
            reads.boundedTarget(conversationID: "c1", seqs: [3, 7, 5]),
            reads.boundedTarget(conversationID: "c1", seqs: [2]),
            reads.boundedTarget(conversationID: "c1", seqs: []),
            reads.boundedTarget(conversationID: "c2", seqs: [1]),
        ]
        #expect(targets == [nil, 7, 7, 7, 1], "nothing before the first seq; never lower; per conversation")
    }

    @Test("spec 7.11: an answer counts only when the generation did not move")
    func staleAnswerIgnored() {
        var reads = ReadTracker()
        let started = reads.generation
        reads.move()
        let stale = reads.accept(unreadCount: 4, startedAt: started)
        #expect(!stale)
        #expect(reads.unreadCount == nil)
        let fresh = reads.accept(unreadCount: 2, startedAt: reads.generation)
        #expect(fresh)
        #expect(reads.unreadCount == 2)
    }

    @Test("closing the chat moves the generation and forgets the count; a reset forgets the floor")
    func closeAndReset() {
        var reads = ReadTracker()
        _ = reads.boundedTarget(conversationID: "c1", seqs: [9])
        _ = reads.accept(unreadCount: 1, startedAt: reads.generation)
        let before = reads.generation
        reads.chatClosed()
        #expect(reads.generation == before + 1)
        #expect(reads.unreadCount == nil)
        reads.chatReset()
        #expect(reads.unreadCount == 0)
        let afterReset = reads.boundedTarget(conversationID: "c1", seqs: [2])
        #expect(afterReset == 2)
    }

    @Test("the read mode follows the last GET")
    func mode() {
        var reads = ReadTracker()
        #expect(!reads.bounded)
        reads.setBounded(true)
        #expect(reads.bounded)
    }
}
