import Foundation
import Observation
import ReceptionCore

/// What a chat screen binds to: the transcript with statuses and upload progress, the composer and its notices,
/// the connection banner and the typing indicator, mirrored on the main actor from a `ChatEngine`.
/// Actions forward to the engine.
@MainActor
@Observable
public final class ChatModel {
    /// The transcript in list order.
    @inline(never) @_optimize(size) public var messages: [ChatMessage] {
        access(keyPath: \.messages)
        return transcript
    }
    /// `messages`' storage, published by hand: the setter Observation generates compares the old transcript with
    /// the new one, element by element, on every change (issue 53).
    @ObservationIgnored private(set) var transcript: [ChatMessage] = []
    /// The composer.
    public private(set) var composer = ChatModel.idleComposer

    /// An empty composer that can do nothing yet (before the first snapshot, or without a session).
    public nonisolated static let idleComposer = ComposerState(
        availability: .open, text: "", pickedPhotos: [], loadingPhotoCount: 0, canSend: false, canAddPhotos: true,
        notices: [])
    /// The connection banner.
    public private(set) var banner: ConnectionBanner = .hidden
    /// Whether an agent is typing.
    public private(set) var agentTyping = false
    /// The chat's opening load has not ended: rows appearing now are the history it brings (`ChatSnapshot.isOpening`).
    public private(set) var isOpening = false
    /// The teammates who wrote agent replies (spec 7.17), with their photos once downloaded. Show names and
    /// photos only when the chat appearance enables them (`showsTeamNames`, `showsTeamPhotos`).
    public private(set) var team: [TeamProfile] = []
    @ObservationIgnored private var teamVersion = 0
    /// Bumped when `team` changes: every row is built again then.
    @ObservationIgnored private(set) var teamChanges = 0
    /// The engine's revision of `messages` (`ChatSnapshot.transcriptRevision`); -1 when not known.
    @ObservationIgnored private var transcriptRevision = -1
    /// The rows a screen draws, each in a slot the model updates in place when its row changes (issue 53): the list
    /// itself changes only when rows come, go or move. Empty until a screen asked for the transcript's rows.
    var rowSlots: [RowSlot] = []
    /// What the rows were built from, and how to build some of them again (`transcriptPresentation`).
    @ObservationIgnored var rowMemo: RowMemo?
    /// How many times rows were built, all of them or some (a screen's test: typing builds none).
    @ObservationIgnored var rowBuilds = 0
    /// How many rows were built in all (issue 53: a change builds its own rows and its neighbours', never the
    /// transcript).
    @ObservationIgnored package internal(set) var rowsBuilt = 0
    /// The version of the last applied snapshot.
    public private(set) var version = -1
    /// The built-in texts and the layout direction in the chat language (the facade sets them from
    /// `Reception.chatTexts`; a change shows at once). English until set.
    public var texts: ChatTexts = .english

    /// The banner's text in the chat language; `nil` when hidden.
    @_optimize(size) public var bannerText: String? { texts.banner(banner) }
    /// The composer's notices in the chat language, most important first.
    @_optimize(size) public var noticeTexts: [String] { composer.notices.map(texts.notice) }
    /// The notice that replaces the composer, in the chat language.
    @_optimize(size) public var composerReplacementText: String? { texts.replacement(composer.availability) }
    /// The status line under `message` in the chat language ("Sending…" while the pending indicator shows), without
    /// spec 7.24's grouping; `presentation(appearance:)` gives the status each row shows.
    @available(*, deprecated, message: "use presentation(appearance:): rows carry the grouped status (spec 7.24)")
    @inline(never) @_optimize(size) public func statusText(for message: ChatMessage) -> String? {
        if message.status == .sending && !message.showsPendingIndicator { return nil }
        return texts.status(message.status)
    }
    /// A card's button title in the chat language.
    @_optimize(size) public func buttonTitle(for message: ChatMessage) -> String? { texts.buttonTitle(for: message) }

    /// The teammate who wrote `message`, when it is an agent reply with a known author (spec 7.24: an unknown
    /// author gets no avatar).
    @inline(never) @_optimize(size) public func author(of message: ChatMessage) -> TeamProfile? {
        guard message.sender.isIncoming, let id = message.authorId else { return nil }
        return team.first { $0.id == id }
    }

    /// The engine the model mirrors.
    public let engine: ChatEngine

    /// A model mirroring `engine`; call `connect()` to start receiving snapshots.
    @inline(never) @_optimize(size) public init(engine: ChatEngine) {
        self.engine = engine
    }

    /// Starts the engine (if needed) and subscribes to its snapshots.
    @inline(never) @_optimize(size) public func connect() async {
        await engine.start()
        await engine.addObserver { [weak self] snapshot in
            Task { @MainActor in self?.apply(snapshot) }
        }
    }

    /// Applies a snapshot unless a newer one was applied already (publication order is not delivery order).
    /// While typed edits are still on their way to the engine, the text field keeps what was typed, so an
    /// earlier draft never flickers back into it. The transcript is taken as the engine's change says (issue 53):
    /// an unchanged one is not compared nor published again, and only the rows that changed are built again.
    @inline(never) @_optimize(size) public func apply(_ snapshot: ChatSnapshot) {
        guard snapshot.version > version else { return }
        version = snapshot.version
        let change = transcriptChange(to: snapshot)
        transcriptRevision = snapshot.transcriptChange == nil ? -1 : snapshot.transcriptRevision
        if change != nil { withMutation(keyPath: \.messages) { transcript = snapshot.messages } }
        var incoming = snapshot.composer
        if pendingDraftEdits > 0 { incoming.text = composer.text }
        if composer != incoming { composer = incoming }
        if banner != snapshot.banner { banner = snapshot.banner }
        if agentTyping != snapshot.agentTyping { agentTyping = snapshot.agentTyping }
        if isOpening != snapshot.isOpening { isOpening = snapshot.isOpening }
        if teamVersion != snapshot.teamVersion {
            teamVersion = snapshot.teamVersion
            team = snapshot.team
            teamChanges += 1
            if var inputs = rowMemo?.inputs, let now = rowMemo?.now {
                inputs.teamChanges = teamChanges
                rebuildRows(inputs, now: now)
            }
        } else if let change {
            refreshRows(change)
        }
    }

    /// How `snapshot`'s transcript differs from `messages`; `nil` when it is the same. The engine's change is used
    /// when it starts from the revision held; otherwise (a snapshot skipped or made by hand) the two are compared.
    @inline(never) @_optimize(size) private func transcriptChange(to snapshot: ChatSnapshot) -> TranscriptChange? {
        if let change = snapshot.transcriptChange, transcriptRevision >= 0 {
            if snapshot.transcriptRevision == transcriptRevision { return nil }
            if snapshot.transcriptRevision == transcriptRevision + 1 { return change }
        }
        return messages == snapshot.messages ? nil : TranscriptChange(kept: 0, changed: [])
    }

    /// Pulls the engine's current snapshot now (for tests and for a screen that appears).
    @_optimize(size) public func refresh() async { apply(await engine.snapshot) }

    /// Draft edits reach the engine in order; Send waits for the last one, so a tap right after typing sends what
    /// was typed.
    @ObservationIgnored private var draftDelivery: Task<Void, Never>?
    /// Edits handed to `setDraft` that the engine has not applied yet.
    @ObservationIgnored private var pendingDraftEdits = 0

    /// The person edited the draft.
    @inline(never) @_optimize(size) public func setDraft(_ text: String) {
        composer.text = text
        pendingDraftEdits += 1
        let previous = draftDelivery
        draftDelivery = Task { [weak self, engine] in
            await previous?.value
            await engine.setDraft(text)
            self?.pendingDraftEdits -= 1
        }
    }

    /// Taps Send.
    @inline(never) @_optimize(size) public func send() async {
        await draftDelivery?.value
        await engine.send()
    }

    /// Taps Retry (or the failed bubble).
    @_optimize(size) public func retry(_ id: String) async { await engine.retry(id) }

    /// Taps Cancel on an automatic resend countdown.
    @_optimize(size) public func cancelAutomaticResend(_ id: String) async { await engine.cancelAutomaticResend(id) }

    /// Adds a picked photo.
    @_optimize(size) public func addPhoto(_ file: Data) async { await engine.addPhoto(file) }

    /// Adds a picked photo whose bytes `load` reads (a `PhotosPickerItem`'s transferable data): it counts as
    /// loading at once, so Send waits and the picker's room shrinks; `nil` shows "Could not load this photo."
    @inline(never) @_optimize(size) public func addPhoto(loading load: @escaping @Sendable () async -> Data?) async {
        await engine.addPhoto(loading: load)
    }

    /// The bytes of a confirmed photo of `messages` (`ChatMessage.attachments`), for its bubble or the viewer. An
    /// expired link is resolved again first (`ChatEngine.photo(_:)`); a thrown error shows the photo as failed,
    /// and calling again is its Retry.
    @inline(never) @_optimize(size) public func photo(_ attachment: Attachment) async throws(ReceptionError) -> Data {
        try await engine.photo(attachment.id)
    }

    /// Removes the picked photo with identity `id` (`ComposerPresentation.PickedPhoto.id`); a second call for the
    /// same photo (a double tap on ✕) does nothing.
    @_optimize(size) public func removePhoto(id: Int) async { await engine.removePhoto(id: id) }

    /// Removes the picked photo at `index` of the picked photos as they are when the call arrives.
    @available(*, deprecated, message: "Use removePhoto(id:): a position moves when another photo is removed or loads")
    @inline(never) @_optimize(size) public func removePhoto(at index: Int) async {
        let id = composer.pickedPhotos.indices.contains(index) ? composer.pickedPhotos[index].id : nil
        if let id { await engine.removePhoto(id: id) }
    }

    /// The screen appeared or disappeared.
    @_optimize(size) public func setVisible(_ visible: Bool) async { await engine.setVisible(visible) }

    /// A tap of the chat's views that runs on its own.
    package enum Action: Sendable {
        case send
        case retry(String)
        case status(MessageRow.Status.Action, rowID: String)
        case removePhoto(id: Int)
        case addPhoto(loading: @Sendable () async -> Data?)
    }

    /// Runs `action` in a task of its own on the main actor, as a view's `Task { await model.… }` did: one task
    /// closure for every button of the chat rather than one per button (Docs/Footprint.md, "Size on iOS").
    @inline(never) @_optimize(size) package func start(_ action: Action) {
        Task { await self.run(action) }
    }

    @inline(never) @_optimize(size) private func run(_ action: Action) async {
        switch action {
        case .send: await send()
        case .retry(let id), .status(.retry, let id): await retry(id)
        case .status(.cancelAutomaticResend, let id): await cancelAutomaticResend(id)
        case .removePhoto(let id): await removePhoto(id: id)
        case .addPhoto(let load): await addPhoto(loading: load)
        }
    }
}
