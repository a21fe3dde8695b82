import ReceptionCore
import Testing
@testable import Conversation

/// `Observers` alone: tokens, the version and event receivers.
@Suite("ObserversTests")
struct ObserversTests {
    private static let empty = ChatSnapshot(
        version: 0, messages: [],
        composer: ComposerState(availability: .open, text: "", pickedPhotos: [], loadingPhotoCount: 0, canSend: false,
                                canAddPhotos: true, notices: []),
        banner: .hidden, agentTyping: false, unreadCount: nil, hasConversation: false)

    @Test("every observer gets each snapshot until it is removed; the version only moves forward")
    func observers() {
        let observers = Observers()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let token = observers.add { first.record($0.version) }
        _ = observers.add { second.record($0.version) }
        #expect(observers.version == 0)
        observers.advanceVersion()
        var snapshot = Self.empty
        snapshot.version = observers.version
        observers.notify(snapshot)
        observers.remove(token)
        observers.advanceVersion()
        snapshot.version = observers.version
        observers.notify(snapshot)
        #expect(first.recorded == [1])
        #expect(second.recorded == [1, 2])
        observers.removeAll()
        observers.notify(snapshot)
        #expect(second.recorded == [1, 2])
    }

    @Test("events reach every receiver, also after the observers are gone")
    func events() {
        let observers = Observers()
        let received = Recorder<ReceptionEvent>()
        observers.addEventHandler { received.record($0) }
        observers.removeAll()
        observers.emit(.messageSent)
        #expect(received.recorded == [.messageSent])
    }
}
