#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI
    import UIKit

    /// Posts what VoiceOver should hear as the chat changes: new team replies, the typing line, a changed
    /// connection banner. `ChatAnnouncements` decides what and when; this only feeds it each presentation shown
    /// and posts the result, starting over each time the screen appears (so a reopening's history stays silent).
    struct ChatAnnouncer: ViewModifier {
        let presentation: TranscriptPresentation

        @State private var announcements: ChatAnnouncements?

        func body(content: Content) -> some View {
            content
                .onAppear {
                    var fresh = ChatAnnouncements(openedAt: Date())
                    _ = fresh.announcements(for: presentation)
                    announcements = fresh
                }
                .onDisappear { announcements = nil }
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
