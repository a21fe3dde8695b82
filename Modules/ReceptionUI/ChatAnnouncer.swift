#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI
    import UIKit

    /// Posts what VoiceOver should hear as the chat changes: new team replies, the typing line, a changed
    /// connection banner. `ChatAnnouncements` decides what and when; this only feeds it each presentation shown
    /// and posts the result. A screen that appears again (back from a full-screen cover) goes on with what it had:
    /// it announces nothing of what it shows then, and nothing twice (issue 50).
    struct ChatAnnouncer: ViewModifier {
        /// The transcript part without its rows (`ChatModel.transcriptSlots`).
        let presentation: TranscriptPresentation
        /// The rows' slots: read when rows come or go, not in the body, so a row's change alone announces nothing
        /// and costs the screen nothing.
        let slots: [RowSlot]

        @State private var announcements: ChatAnnouncements?

        /// What is announced: the rows' IDs and the rest of the transcript part.
        private struct Shown: Equatable {
            var rowIDs: [String]
            var presentation: TranscriptPresentation
        }

        /// The presentation with its rows, as `ChatAnnouncements` takes it.
        @_optimize(size) private var withRows: TranscriptPresentation {
            var shown = presentation
            shown.rows = slots.map(\.row)
            return shown
        }

        @_optimize(size) func body(content: Content) -> some View {
            content
                .onAppear { appeared() }
                .onChange(of: Shown(rowIDs: slots.map(\.id), presentation: presentation)) { changed() }
        }

        /// The screen appeared: what it shows now counts as heard. A method the closure calls once: closures are
        /// compiled at the host's -O whatever the function around them (Docs/Footprint.md).
        @inline(never) @_optimize(size) private func appeared() {
            var current = announcements ?? ChatAnnouncements()
            current.seen(withRows)
            announcements = current
        }

        /// The rows or the rest of the transcript changed: what is new is announced.
        @inline(never) @_optimize(size) private func changed() {
            guard var current = announcements else { return }
            let spoken = current.announcements(for: withRows)
            announcements = current
            // One announcement, so that a reply does not cut off the banner said just before it.
            guard !spoken.isEmpty else { return }
            // UIKit's announcement, which `AccessibilityNotification.Announcement` (iOS 17) wraps: the same
            // VoiceOver speech, from the UIKit the SDK links already. Queued, so that a reply arriving while
            // VoiceOver speaks (the customer's typing echoed, a row read) waits its turn instead of being cut off
            // or dropped. The attribute is added rather than given in a dictionary: a dictionary keyed by
            // `NSAttributedString.Key` brings the imported type's six conformances into the app (2.5 kB;
            // Docs/Footprint.md, "Size on iOS").
            let text = NSMutableAttributedString(string: spoken.joined(separator: "\n"))
            text.addAttribute(
                .accessibilitySpeechQueueAnnouncement, value: true, range: NSRange(location: 0, length: text.length))
            UIAccessibility.post(notification: .announcement, argument: text)
        }
    }

    extension View {
        /// Announces the changes of `presentation` and its rows' `slots` to VoiceOver (`ChatAnnouncements`).
        @_optimize(size) func chatAnnouncements(_ presentation: TranscriptPresentation, slots: [RowSlot]) -> some View {
            modifier(ChatAnnouncer(presentation: presentation, slots: slots))
        }
    }
#endif
