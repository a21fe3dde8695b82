#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The transcript: the welcome state of an empty chat, the rows oldest first, and the typing indicator. It opens
    /// at the newest row and keeps it in view as messages arrive or a teammate starts typing (animated unless
    /// Reduce Motion is on). It measures its row width for the photo sizes and presents the photo viewer.
    struct TranscriptView: View {
        let rows: [MessageRow]
        let emptyState: ChatPresentation.EmptyState?
        let typingText: String?
        let typingReservesAvatarColumn: Bool
        let newestRowID: String?
        let model: ChatModel
        let host: any ChatScreenHost

        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @State private var rowWidth: CGFloat = 0
        @State private var viewedPhoto: ViewedPhoto?

        /// What the transcript scrolls to.
        private enum Item: Hashable {
            case row(String)
            case typing
        }

        var body: some View {
            ScrollViewReader { proxy in
                ScrollView {
                    LazyVStack(spacing: 3) {
                        if let emptyState {
                            WelcomeView(state: emptyState)
                                .containerRelativeFrame(.vertical, alignment: .center)
                        }
                        ForEach(rows) { row in
                            MessageRowView(row: row, model: model, host: host)
                                .id(Item.row(row.id))
                        }
                        if let typingText {
                            TypingIndicator(text: typingText, reservesAvatarColumn: typingReservesAvatarColumn)
                                .id(Item.typing)
                        }
                    }
                    .onGeometryChange(for: CGFloat.self) { $0.size.width } action: { rowWidth = $0 }
                    .padding(.horizontal, 12)
                    .padding(.vertical, 8)
                }
                .defaultScrollAnchor(.bottom)
                .scrollDismissesKeyboard(.interactively)
                .environment(\.transcriptWidth, rowWidth)
                .environment(\.openPhoto, OpenPhotoAction { viewedPhoto = ViewedPhoto(attachment: $0) })
                .onAppear { scroll(proxy, to: newestRowID.map(Item.row), animated: false) }
                .onChange(of: newestRowID) { scroll(proxy, to: newestRowID.map(Item.row), animated: true) }
                .onChange(of: typingText != nil) { _, isTyping in
                    if isTyping { scroll(proxy, to: .typing, animated: true) }
                }
            }
            .fullScreenCover(item: $viewedPhoto) { photo in
                PhotoViewer(attachment: photo.attachment, model: model)
            }
        }

        private func scroll(_ proxy: ScrollViewProxy, to item: Item?, animated: Bool) {
            guard let item else { return }
            withAnimation(animated && !reduceMotion ? .easeOut(duration: 0.25) : nil) {
                proxy.scrollTo(item, anchor: .bottom)
            }
        }
    }
#endif
