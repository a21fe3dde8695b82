import Foundation
import Observation
import ReceptionCore

/// One row of the transcript as the model keeps it (issue 53): its `row` is replaced in place when the row
/// changes, so a screen that draws each row from its slot redraws that row alone, and the list of slots changes
/// only when rows come, go or move.
@MainActor
@Observable
package final class RowSlot: Identifiable {
    /// The message's local ID (`MessageRow.id`).
    package nonisolated let id: String
    /// The row as it shows now.
    package internal(set) var row: MessageRow

    @inline(never) @_optimize(size) init(_ row: MessageRow) {
        id = row.id
        self.row = row
    }
}

/// The rows `ChatModel` built last and what they were built from (issue 53). The texts, appearance, paywalls, day
/// and team are the same for every row: when one changes, every row is built again. A transcript change builds
/// again only the rows it names, the new ones, and the neighbours whose place (group, timestamp, status, fade)
/// moved with them.
@MainActor
final class RowMemo {
    /// What every row depends on.
    struct Inputs: Equatable {
        /// `ChatModel`'s count of team changes.
        var teamChanges: Int
        var texts: ChatTexts
        var appearance: ChatAppearance
        var availablePaywalls: Set<String>?
        var timeZone: TimeZone
        /// The start of `now`'s day in `timeZone`: timestamps are worded against the day, not the instant.
        var day: Date
    }

    var inputs: Inputs
    /// The instant timestamps were worded against (on `inputs.day`).
    var now: Date
    var context: ChatPresentation.RowContext
    /// Each row's place, by position.
    var places: [ChatPresentation.RowPlace] = []
    /// The position of the last own message.
    var lastOwn: Int?
    /// The rows in a flat array, made when `ChatModel.transcriptPresentation` asks and dropped on any change.
    var flatRows: [MessageRow]?

    @inline(never) @_optimize(size) init(inputs: Inputs, now: Date, context: ChatPresentation.RowContext) {
        self.inputs = inputs
        self.now = now
        self.context = context
    }

    /// Builds every row of `messages` into `slots`, keeping the slot of a row that stays in its place. Returns
    /// whether `slots` changed (rows came, went or moved).
    @inline(never) @_optimize(size) func rebuild(_ messages: [ChatMessage], slots: inout [RowSlot]) -> Bool {
        lastOwn = messages.lastIndex { !$0.sender.isIncoming }
        places = messages.indices.map { ChatPresentation.place(at: $0, of: messages, lastOwn: lastOwn, context) }
        flatRows = nil
        var moved = slots.count != messages.count
        for position in messages.indices {
            let row = ChatPresentation.row(at: position, of: messages, place: places[position], context)
            if position < slots.count, slots[position].id == row.id {
                slots[position].row = row
            } else if position < slots.count {
                slots[position] = RowSlot(row)
                moved = true
            } else {
                slots.append(RowSlot(row))
            }
        }
        if slots.count > messages.count { slots.removeSubrange(messages.count...) }
        return moved
    }

    /// Builds again the rows `change` names, the new ones, and every neighbour whose place moved with them;
    /// `slots` changes from `change.kept` on only. Returns how many rows were built.
    @inline(never) @_optimize(size)
    func update(_ messages: [ChatMessage], _ change: TranscriptChange, slots: inout [RowSlot]) -> Int {
        let count = messages.count
        let kept = min(change.kept, slots.count, count, places.count)
        flatRows = nil
        let wasLastOwn = lastOwn
        if lastOwn.map({ $0 < kept }) ?? true {
            // The messages before `kept` are the same ones: a newer own message can only be among the new ones.
            lastOwn = messages[kept...].lastIndex { !$0.sender.isIncoming } ?? lastOwn
        } else {
            lastOwn = messages.lastIndex { !$0.sender.isIncoming }
        }
        // The positions whose row may change: the changed and new ones and the neighbours they group with, the
        // old and new last own message, and the own bubbles whose fade counts them.
        var touched = change.changed.filter { $0 < kept }
        if kept < count || kept < places.count { touched.append(kept) }
        var candidates = Set<Int>()
        for position in touched {
            candidates.formUnion([position - 1, position, position + 1])
            guard context.appearance.fadesOlderMessages else { continue }
            var earlier = position - 1, texts = 0
            while earlier >= 0, texts < ChatAppearance.fadeSteps {
                candidates.insert(earlier)
                if ChatPresentation.isText(messages[earlier]) { texts += 1 }
                earlier -= 1
            }
        }
        candidates.formUnion([wasLastOwn, lastOwn].compactMap { $0 })
        let changed = Set(change.changed)
        places.removeSubrange(kept...)
        if slots.count > kept { slots.removeSubrange(kept...) }
        var built = 0
        var ascending = Array(candidates)
        stableSort(&ascending, by: <)
        for position in ascending where position >= 0 && position < kept {
            let place = ChatPresentation.place(at: position, of: messages, lastOwn: lastOwn, context)
            guard changed.contains(position) || place != places[position] else { continue }
            places[position] = place
            let slot = slots[position]
            slot.row = ChatPresentation.row(at: position, of: messages, place: place, context)
            built += 1
        }
        for position in kept..<max(kept, count) {
            let place = ChatPresentation.place(at: position, of: messages, lastOwn: lastOwn, context)
            places.append(place)
            slots.append(RowSlot(ChatPresentation.row(at: position, of: messages, place: place, context)))
            built += 1
        }
        return built
    }
}
