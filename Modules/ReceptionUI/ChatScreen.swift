#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The chat of one model: the transcript over the transcript background, the composer (with the connection
    /// banner) pinned under it above the keyboard, the title, and the chat language's reading direction. Everything
    /// shown comes from one `ChatPresentation` of the model's state.
    struct ChatScreen: View {
        let model: ChatModel
        let host: any ChatScreenHost
        let appearance: ChatAppearance

        /// The session's decoded photos: they live as long as this screen of this model.
        @State private var decoder = PhotoDecoder()

        var body: some View {
            let presentation = model.presentation(appearance: appearance, availablePaywalls: host.availablePaywallIDs)
            TranscriptView(
                rows: presentation.rows, emptyState: presentation.emptyState, typingText: presentation.typingText,
                typingReservesAvatarColumn: presentation.typingReservesAvatarColumn,
                newestRowID: presentation.newestRowID, model: model, host: host
            )
            .safeAreaInset(edge: .bottom, spacing: 0) {
                ComposerView(composer: presentation.composer, banner: presentation.banner, model: model)
            }
            .background { appearance.colors.backgroundColor.ignoresSafeArea() }
            .environment(\.photoDecoder, decoder)
            .chatAnnouncements(presentation)
            .navigationTitle(presentation.title ?? "")
            .navigationBarTitleDisplayMode(.inline)
            .environment(\.layoutDirection, presentation.layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight)
        }
    }
#endif
