@testable import Conversation
import Foundation
@testable import ReceptionCore
import Testing

/// The `==` written by hand for size (Docs/Footprint.md, "Equality written where it carries `Data`") compares every
/// field and every case's values. A struct's changes must number its stored fields (read by `Mirror`), so a field
/// added later without a change here fails; an enum's variants must differ from each other in one case or one value
/// each, and every one must equal a copy of itself.
@Suite("WrittenEqualityTests")
struct WrittenEqualityTests {
    /// Problems with a struct's `==`: `changes` must change one field each, all of them.
    static func structProblems<T: Equatable>(_ value: T, _ changes: [(String, (inout T) -> Void)]) -> [String] {
        var problems: [String] = []
        let fields = Mirror(reflecting: value).children.count
        if fields != changes.count { problems.append("\(T.self) has \(fields) fields, \(changes.count) changes") }
        let copy = value
        if copy != value { problems.append("\(T.self) differs from its copy") }
        for (field, change) in changes {
            var changed = value
            change(&changed)
            if changed == value { problems.append("\(T.self).\(field) is not compared") }
        }
        return problems
    }

    /// Problems with an enum's `==`: every variant equals itself and no other.
    static func enumProblems<T: Equatable>(_ variants: [T]) -> [String] {
        var problems: [String] = []
        for (i, left) in variants.enumerated() {
            for (j, right) in variants.enumerated() where (left == right) != (i == j) {
                problems.append("\(T.self): variant \(i) \(i == j ? "differs from" : "equals") variant \(j)")
            }
        }
        return problems
    }

    static let row = MessageRow(
        id: "m1", side: .own, text: "Hello", isTextSelectable: true, timestamp: nil, timestampText: nil,
        createdAt: Date(timeIntervalSince1970: 1_800_000_000), startsGroup: true, endsGroup: true, author: nil,
        reservesAvatarColumn: false, photos: [], uploadProgress: nil, card: nil, status: nil, isPending: false,
        tapRetries: false, fade: 0, announcement: "", accessibilityLabel: "You: Hello")
    static let bytes = Data([1, 2, 3])
    static let otherBytes = Data([1, 2, 4])

    @Test func structsCompareEveryField() {
        let photo = PreparedPhoto(jpeg: Self.bytes, width: 3, height: 4, checksum: "c")
        #expect(Self.structProblems(photo, [
            ("jpeg", { $0.jpeg = Self.otherBytes }), ("width", { $0.width = 5 }), ("height", { $0.height = 5 }),
            ("checksum", { $0.checksum = "d" }),
        ]) == [])
        let response = HTTPResponse(status: 200, headers: ["a": "b"], body: Self.bytes)
        #expect(Self.structProblems(response, [
            ("status", { $0.status = 201 }), ("headers", { $0.headers = ["a": "c"] }),
            ("body", { $0.body = Self.otherBytes }),
        ]) == [])
        let picked = ComposerPresentation.PickedPhoto(id: 1, jpeg: Self.bytes, aspectRatio: 1.5, removeLabel: "x")
        #expect(Self.structProblems(picked, [
            ("id", { $0.id = 2 }), ("jpeg", { $0.jpeg = Self.otherBytes }), ("aspectRatio", { $0.aspectRatio = 2 }),
            ("removeLabel", { $0.removeLabel = "y" }),
        ]) == [])
        let uploaded = Transcript.UploadedPhoto(attachmentID: "a", jpeg: Self.bytes)
        #expect(Self.structProblems(uploaded, [
            ("attachmentID", { $0.attachmentID = "b" }), ("jpeg", { $0.jpeg = Self.otherBytes }),
        ]) == [])
    }

    @Test func widerValuesCompareEveryField() {
        let red = ThemedColor(AppearanceColor(red: 200, green: 0, blue: 0))
        let blue = ThemedColor(AppearanceColor(red: 0, green: 0, blue: 200))
        let card = ChatAppearance.Card(
            icon: "star", iconImage: .asset(name: "i"), accessory: "chevron", accessoryImage: .asset(name: "j"),
            button: red, buttonText: red, iconSize: 20)
        #expect(Self.structProblems(card, [
            ("icon", { $0.icon = "moon" }), ("iconImage", { $0.iconImage = .asset(name: "k") }),
            ("accessory", { $0.accessory = nil }), ("accessoryImage", { $0.accessoryImage = nil }),
            ("button", { $0.button = blue }), ("buttonText", { $0.buttonText = blue }), ("iconSize", { $0.iconSize = 22 }),
        ]) == [])
        let icon = ChatAppearance.WelcomeIcon(
            symbol: "s", image: .asset(name: "i"), color: red, size: 56, cornerRadius: 4,
            offset: ChatAppearance.Offset(x: 1, y: 2))
        #expect(Self.structProblems(icon, [
            ("symbol", { $0.symbol = "t" }), ("image", { $0.image = nil }), ("color", { $0.color = blue }),
            ("size", { $0.size = 60 }), ("cornerRadius", { $0.cornerRadius = 5 }),
            ("offset", { $0.offset = ChatAppearance.Offset(x: 2, y: 2) }),
        ]) == [])
        let when = Date(timeIntervalSince1970: 1_000)
        let message = Message(id: "m", seq: 1, sender: .agent, text: "hi", createdAt: when)
        let page = MessagesPage(
            messages: [message], hasMore: true, conversation: CompactConversation(id: "c", status: "OPEN"),
            device: DeviceFlags(blocked: false), team: [TeamMember(id: "t", name: "n")], boundedRead: true)
        #expect(Self.structProblems(page, [
            ("messages", { $0.messages = [] }), ("hasMore", { $0.hasMore = false }),
            ("conversation", { $0.conversation = nil }), ("device", { $0.device = nil }), ("team", { $0.team = [] }),
            ("boundedRead", { $0.boundedRead = nil }),
        ]) == [])
        let stages = [UnreadPollingStage(forMinutes: 1, everySeconds: 5)]
        let unread = UnreadResponse(
            hasConversation: true, unreadCount: 1, status: "OPEN", lastMessageAt: when, push: true,
            unreadPolling: stages)
        #expect(Self.structProblems(unread, [
            ("hasConversation", { $0.hasConversation = false }), ("unreadCount", { $0.unreadCount = 2 }),
            ("status", { $0.status = nil }), ("lastMessageAt", { $0.lastMessageAt = nil }), ("push", { $0.push = false }),
            ("unreadPolling", { $0.unreadPolling = [] }),
        ]) == [])
        let snapshot = UnreadSnapshot(
            hasConversation: true, status: "OPEN", lastMessageAt: when, pushActive: true, pollingStages: stages)
        #expect(Self.structProblems(snapshot, [
            ("hasConversation", { $0.hasConversation = false }), ("status", { $0.status = nil }),
            ("lastMessageAt", { $0.lastMessageAt = nil }), ("pushActive", { $0.pushActive = false }),
            ("pollingStages", { $0.pollingStages = nil }),
        ]) == [])
    }

    @Test func storedValuesCompareEveryField() {
        let profile = TeamProfile(id: "t", name: "n", photoKey: "k", photo: Self.bytes)
        #expect(Self.structProblems(profile, [
            ("id", { $0.id = "u" }), ("name", { $0.name = "m" }), ("photoKey", { $0.photoKey = nil }),
            ("photo", { $0.photo = Self.otherBytes }),
        ]) == [])
        let preferences = SynchronisedPreferences(
            language: "en", updatesAppBadge: true, availablePaywalls: ["p"], badgeSynchronised: true)
        #expect(Self.structProblems(preferences, [
            ("language", { $0.language = "de" }), ("updatesAppBadge", { $0.updatesAppBadge = false }),
            ("availablePaywalls", { $0.availablePaywalls = nil }), ("badgeSynchronised", { $0.badgeSynchronised = false }),
        ]) == [])
        let when = Date(timeIntervalSince1970: 1_000)
        let state = SessionState(
            cursor: 5, chatRevision: 1, hasStartedChat: true, unread: UnreadSnapshot(hasConversation: true),
            cooldowns: [StoredCooldown(scope: .requests, until: when, automatic: false)], lastLimitCheck: when,
            pendingActionClicks: ["m"], preferences: preferences)
        #expect(Self.structProblems(state, [
            ("cursor", { $0.cursor = 6 }), ("chatRevision", { $0.chatRevision = 2 }),
            ("hasStartedChat", { $0.hasStartedChat = false }), ("unread", { $0.unread = UnreadSnapshot() }),
            ("cooldowns", { $0.cooldowns = [] }), ("lastLimitCheck", { $0.lastLimitCheck = nil }),
            ("pendingActionClicks", { $0.pendingActionClicks = [] }),
            ("preferences", { $0.preferences = SynchronisedPreferences() }),
        ]) == [])
        let history = HistoryResponse(
            conversation: ConversationSummary(id: "c", status: "OPEN", unreadForUser: 0, createdAt: when),
            messages: [Message(id: "m", seq: 1, sender: .agent, text: "hi", createdAt: when)],
            device: DeviceFlags(blocked: false), team: [TeamMember(id: "t", name: "n")], boundedRead: true,
            limits: LimitValues(messages: 1, uploads: 2))
        #expect(Self.structProblems(history, [
            ("conversation", { $0.conversation = nil }), ("messages", { $0.messages = [] }),
            ("device", { $0.device = nil }), ("team", { $0.team = nil }), ("boundedRead", { $0.boundedRead = nil }),
            ("limits", { $0.limits = nil }),
        ]) == [])
    }

    @Test func presentationValuesCompareEveryField() {
        let transcript = TranscriptPresentation(
            rows: [], isEmpty: true, banner: .offline, agentTyping: true, texts: ChatTexts(language: "en"),
            appearance: ChatAppearance())
        #expect(Self.structProblems(transcript, [
            ("title", { $0.title = "other" }), ("rows", { $0.rows = [Self.row] }), ("emptyState", { $0.emptyState = nil }),
            ("typingText", { $0.typingText = "other" }),
            ("typingReservesAvatarColumn", { $0.typingReservesAvatarColumn.toggle() }), ("banner", { $0.banner = nil }),
            ("layoutDirection", { $0.layoutDirection = .rightToLeft }), ("isOpening", { $0.isOpening.toggle() }),
        ]) == [])
        let composer = ComposerState(
            availability: .open, text: "", pickedPhotos: [], loadingPhotoCount: 0, canSend: false, canAddPhotos: true,
            notices: [])
        let chat = ChatSnapshot(
            version: 1, messages: [], composer: composer, banner: .hidden, agentTyping: false, unreadCount: nil,
            hasConversation: false)
        let message = ChatMessage(
            id: "m", seq: 1, sender: .agent, text: "hi", kind: .text, reviewUrl: nil, paywallId: nil, buttonLabel: nil,
            authorId: nil, attachments: [], localPhotos: [], createdAt: Date(timeIntervalSince1970: 1),
            status: .received, showsPendingIndicator: false, uploadProgress: nil, retry: .none)
        #expect(Self.structProblems(chat, [
            ("version", { $0.version = 2 }), ("messages", { $0.messages = [message] }),
            ("composer", { $0.composer.text = "draft" }), ("banner", { $0.banner = .offline }),
            ("agentTyping", { $0.agentTyping = true }), ("unreadCount", { $0.unreadCount = 3 }),
            ("hasConversation", { $0.hasConversation = true }),
            ("team", { $0.team = [TeamProfile(id: "t", name: "n", photo: nil)] }), ("teamVersion", { $0.teamVersion = 1 }),
            ("isOpening", { $0.isOpening = true }), ("transcriptRevision", { $0.transcriptRevision = 1 }),
            ("transcriptChange", { $0.transcriptChange = TranscriptChange(kept: 0, changed: []) }),
        ]) == [])
    }

    @Test func enumsCompareEveryCaseAndValue() {
        #expect(Self.enumProblems([
            SecureStoreRead.value(Self.bytes), .value(Self.otherBytes), .missing, .unavailable(reason: "a"),
            .unavailable(reason: "b"),
        ]) == [])
        #expect(Self.enumProblems([
            HTTPStreamEvent.head(status: 200, headers: ["a": "b"]), .head(status: 201, headers: ["a": "b"]),
            .head(status: 200, headers: ["a": "c"]), .bytes(Self.bytes), .bytes(Self.otherBytes),
        ]) == [])
        #expect(Self.enumProblems([
            AppearanceFetch.unchanged(etag: nil), .unchanged(etag: "e"),
            .updated(appearance: Self.bytes, revision: 1, etag: "e"),
            .updated(appearance: Self.otherBytes, revision: 1, etag: "e"),
            .updated(appearance: Self.bytes, revision: 2, etag: "e"),
            .updated(appearance: Self.bytes, revision: 1, etag: nil),
        ]) == [])
        let attachment = Attachment(id: "a", url: "https://example.com/a", contentType: "image/jpeg")
        var other = attachment
        other.width = 10
        #expect(Self.enumProblems([
            MessageRow.Photo.Source.confirmed(attachment), .confirmed(other), .pending(Self.bytes),
            .pending(Self.otherBytes),
        ]) == [])
    }

    /// The check fails where it should: a change that leaves the value as it was, or a missing one.
    @Test func theCheckCanFail() {
        let photo = PreparedPhoto(jpeg: Self.bytes, width: 3, height: 4, checksum: "c")
        #expect(Self.structProblems(photo, [
            ("jpeg", { $0.jpeg = Self.bytes }), ("width", { $0.width = 5 }), ("height", { $0.height = 5 }),
        ]).count == 2)
        #expect(Self.enumProblems([SecureStoreRead.missing, .missing]).count == 2)
    }
}
