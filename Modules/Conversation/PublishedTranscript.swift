/// The transcript as the engine last published it (`ChatSnapshot.messages`), its revision and what changed into
/// it (issue 53). A publication that changes no message hands on the same array and revision, so `ChatModel` skips
/// it without comparing; one that does names the positions that changed. The comparison runs here, on the engine,
/// never on the main actor.
final class PublishedTranscript {
    /// The messages last published.
    private(set) var messages: [ChatMessage] = []
    /// The messages published before them, kept until the next change: the main actor lets go of the transcript
    /// it replaces with a count decrement, and the transcript is freed here, message by message, off the main actor.
    private var previous: [ChatMessage] = []
    /// Moves whenever `messages` changes.
    private(set) var revision = 0
    /// How `messages` differs from the transcript of the revision before.
    private(set) var change: TranscriptChange?

    /// Takes `fresh` as the transcript to publish; the revision moves only when it differs.
    @inline(never) @_optimize(size) func update(_ fresh: [ChatMessage]) {
        let limit = min(messages.count, fresh.count)
        var kept = 0
        while kept < limit, messages[kept].id == fresh[kept].id { kept += 1 }
        let changed = (0..<kept).filter { messages[$0] != fresh[$0] }
        guard kept < messages.count || kept < fresh.count || !changed.isEmpty else { return }
        previous = messages
        messages = fresh
        revision += 1
        change = TranscriptChange(kept: kept, changed: changed)
    }
}
