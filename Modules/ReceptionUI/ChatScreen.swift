#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The chat of one model: the transcript over the transcript background, the composer (with the connection
    /// banner) pinned under it above the keyboard, the title, and the chat language's reading direction. The
    /// screen lays out `ChatModel.transcriptSlots`, which reads no composer state and no row; `ComposerView` reads
    /// the composer itself, so a keystroke invalidates only the composer and the rows are not built again.
    struct ChatScreen: View {
        let model: ChatModel
        let host: any ChatScreenHost
        let appearance: ChatAppearance
        /// The session's decoded photos: one decoder as long as this screen of this model lives.
        @State private var decoderSlot = PhotoDecoderSlot()

        @_optimize(size) var body: some View {
            // The rows come in slots the model updates in place (issue 53): this body reads the list of slots, not
            // the rows, so a row that changes (upload progress, a countdown, a status) redraws that row alone.
            let (transcript, slots) = model.transcriptSlots(
                appearance: appearance, availablePaywalls: host.availablePaywallIDs)
            TranscriptView(
                slots: slots, emptyState: transcript.emptyState, typingText: transcript.typingText,
                typingReservesAvatarColumn: transcript.typingReservesAvatarColumn, model: model, host: host
            )
                .safeAreaInset(edge: .bottom, spacing: 0) {
                    ComposerView(banner: transcript.banner, model: model)
                }
                .background { appearance.colors.backgroundColor.ignoresSafeArea() }
                .environment(\.photoDecoder, decoderSlot.decoder)
                .chatAnnouncements(transcript, slots: slots)
                .navigationTitle(transcript.title ?? "")
                .navigationBarTitleDisplayMode(.inline)
        }
    }
#endif
