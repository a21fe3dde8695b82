#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The chat of one model: the transcript over the transcript background, the composer (with the connection
    /// banner) pinned under it above the keyboard, the title, and the chat language's reading direction. The
    /// screen lays out `ChatModel.transcriptPresentation`, which reads no composer state; `ComposerView` reads the
    /// composer itself, so a keystroke invalidates only the composer and the rows are not built again.
    struct ChatScreen: View {
        let model: ChatModel
        let host: any ChatScreenHost
        let appearance: ChatAppearance
        /// The session's decoded photos: one decoder as long as this screen of this model lives.
        @State private var decoderSlot = PhotoDecoderSlot()

        var body: some View {
            let transcript = model.transcriptPresentation(
                appearance: appearance, availablePaywalls: host.availablePaywallIDs)
            TranscriptView(
                rows: transcript.rows, emptyState: transcript.emptyState, typingText: transcript.typingText,
                typingReservesAvatarColumn: transcript.typingReservesAvatarColumn,
                newestRowID: transcript.newestRowID, model: model, host: host
            )
                .safeAreaInset(edge: .bottom, spacing: 0) {
                    ComposerView(banner: transcript.banner, model: model)
                }
                .background { appearance.colors.backgroundColor.ignoresSafeArea() }
                .environment(\.photoDecoder, decoderSlot.decoder)
                .chatAnnouncements(transcript)
                .navigationTitle(transcript.title ?? "")
                .navigationBarTitleDisplayMode(.inline)
        }
    }
#endif
