#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI
    import UIKit

    /// Posts what VoiceOver should hear as the chat changes: new team replies, the typing line, a changed
    /// connection banner. `ChatAnnouncements` decides what and when; this only feeds it each presentation shown
    /// and posts the result. A screen that appears again (back from a full-screen cover) goes on with what it had:
    /// it announces nothing of what it shows then, and nothing twice (issue 50).
    struct ChatAnnouncer: ViewModifier {
        let presentation: TranscriptPresentation

        @State private var announcements: ChatAnnouncements?

        func body(content: Content) -> some View {
            content
                .onAppear {
                    var current = announcements ?? ChatAnnouncements()
                    current.seen(presentation)
                    announcements = current
                }
                .onChange(of: presentation) { _, shown in
                    guard var current = announcements else { return }
                    let spoken = current.announcements(for: shown)
                    announcements = current
                    // One announcement, so that a reply does not cut off the banner said just before it.
                    guard !spoken.isEmpty else { return }
                    // UIKit's announcement, which `AccessibilityNotification.Announcement` (iOS 17) wraps: the same
                    // VoiceOver speech, from the UIKit the SDK links already. Queued, so that a reply arriving while
                    // VoiceOver speaks (the customer's typing echoed, a row read) waits its turn instead of being
                    // cut off or dropped.
                    let text = NSAttributedString(
                        string: spoken.joined(separator: "\n"),
                        attributes: [.accessibilitySpeechQueueAnnouncement: true])
                    UIAccessibility.post(notification: .announcement, argument: text)
                }
        }
    }

    extension View {
        /// Announces `presentation`'s changes to VoiceOver (`ChatAnnouncements`).
        func chatAnnouncements(_ presentation: TranscriptPresentation) -> some View {
            modifier(ChatAnnouncer(presentation: presentation))
        }
    }
#endif
