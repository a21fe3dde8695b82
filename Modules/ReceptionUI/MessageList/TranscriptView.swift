#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The transcript: the welcome state of an empty chat, the rows oldest first, and the typing indicator. It opens
    /// at the newest row and follows new rows and typing only while the reader is at or near the bottom; scrolled
    /// up, it keeps their place and shows "3 new messages" instead. `TranscriptFollowing` makes every one of those
    /// decisions: this view only reports the scroll geometry and the changes, and scrolls where it is told
    /// (animated unless Reduce Motion is on). It measures its row width for the photo sizes and presents the photo
    /// viewer.
    struct TranscriptView: View {
        /// The rows, each drawn from its slot by a view of its own (issue 53).
        let slots: [RowSlot]
        let emptyState: ChatPresentation.EmptyState?
        let typingText: String?
        let typingReservesAvatarColumn: Bool
        let model: ChatModel
        let host: any ChatScreenHost

        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @State private var rowWidth: CGFloat = 0
        @State private var viewedPhoto: ViewedPhoto?
        @State private var following = TranscriptFollowing()
        /// The scroll view's bottom safe-area inset (the composer, the home indicator, the keyboard): on iOS 17,
        /// where the content's frame is all there is to measure, the part of the scroll view it covers.
        @State private var bottomInset: CGFloat = 0

        /// What the transcript scrolls to.
        private enum Item: Hashable {
            case row(String)
            case typing
        }

        @_optimize(size) var body: some View {
            ScrollViewReader { proxy in scroller(proxy) }
                .fullScreenCover(item: $viewedPhoto) { photo in viewer(photo) }
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).

        /// The scroll view with its geometry readers, the new-messages control, and the scrolls `following` asks for.
        @inline(never) @_optimize(size) private func scroller(_ proxy: ScrollViewProxy) -> some View {
            ScrollView { content(proxy) }
                .modifier(ScrollGeometryReader { readerMoved(proxy, $0) })
                .onGeometryChange(for: CGFloat.self) { $0.safeAreaInsets.bottom } action: { bottomInset = $0 }
                .modifier(InitialBottomAnchor())
                .scrollDismissesKeyboard(.interactively)
                .overlay(alignment: .bottom) { newMessages(proxy) }
                .environment(\.transcriptWidth, rowWidth)
                .environment(\.openPhoto, OpenPhotoAction { viewedPhoto = ViewedPhoto(attachment: $0) })
                .onAppear { appeared(proxy) }
                .onChange(of: slots.map(\.id)) { rowsChanged(proxy) }
                .onChange(of: typingText != nil) { _, isTyping in typingChanged(proxy, isTyping) }
        }

        /// The rows in a lazy stack, measured for the photo sizes and, on iOS 17, for where the reader is.
        @inline(never) @_optimize(size) private func content(_ proxy: ScrollViewProxy) -> some View {
            LazyVStack(spacing: 3) { stack }
                .onGeometryChange(for: CGFloat.self) { $0.size.width } action: { rowWidth = $0 }
                .padding(horizontal: 12, vertical: 8)
                .modifier(ContentFrameReader(bottomInset: bottomInset) { readerMoved(proxy, $0) })
        }

        /// The welcome state of an empty chat, the rows, and the typing indicator.
        @ViewBuilder
        @inline(never) @_optimize(size) private var stack: some View {
            if let emptyState {
                WelcomeView(state: emptyState)
                    .containerRelativeFrame(.vertical, alignment: .center)
            }
            ForEach(slots) { slot in row(slot) }
            if let typingText {
                TypingIndicator(text: typingText, reservesAvatarColumn: typingReservesAvatarColumn)
                    .id(Item.typing)
            }
        }

        /// One row, identified for scrolling.
        @inline(never) @_optimize(size) private func row(_ slot: RowSlot) -> some View {
            RowSlotView(slot: slot, model: model, host: host)
                .id(Item.row(slot.id))
        }

        /// "3 new messages" at the bottom while the reader is scrolled up and new rows came in.
        @inline(never) @_optimize(size) private func newMessages(_ proxy: ScrollViewProxy) -> some View {
            ZStack { newMessagesButton(proxy) }
                .animation(reduceMotion ? nil : .easeOut(duration: 0.2), value: following.unseenCount > 0)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func newMessagesButton(_ proxy: ScrollViewProxy) -> some View {
            if let control = following.newMessagesControl(texts: model.texts) {
                NewMessagesButton(control: control) { scroll(proxy, following.jumpTapped()) }
                    .padding(.bottom, 8)
                    .transition(.opacity)
            }
        }

        /// The viewer of a tapped photo, full screen.
        @inline(never) @_optimize(size) private func viewer(_ photo: ViewedPhoto) -> some View {
            PhotoViewer(attachment: photo.attachment, model: model)
        }

        @inline(never) @_optimize(size) private func appeared(_ proxy: ScrollViewProxy) {
            scroll(proxy, following.appeared(rows: slots.map(\.row)))
        }

        @inline(never) @_optimize(size) private func rowsChanged(_ proxy: ScrollViewProxy) {
            scroll(proxy, following.rowsChanged(slots.map(\.row)))
        }

        @inline(never) @_optimize(size) private func typingChanged(_ proxy: ScrollViewProxy, _ isTyping: Bool) {
            if isTyping { scroll(proxy, following.typingStarted()) }
        }

        /// The bottom: the typing indicator while it shows, else the newest row.
        @_optimize(size) private var bottomItem: Item? {
            typingText != nil ? .typing : slots.last.map { Item.row($0.id) }
        }

        @inline(never) @_optimize(size) private func readerMoved(_ proxy: ScrollViewProxy, _ position: TranscriptFollowing.Position) {
            scroll(proxy, following.readerMoved(to: position))
        }

        @inline(never) @_optimize(size) private func scroll(_ proxy: ScrollViewProxy, _ scroll: TranscriptFollowing.Scroll?) {
            guard let scroll, let item = bottomItem else { return }
            withAnimation(scroll == .animated && !reduceMotion ? .easeOut(duration: 0.25) : nil) {
                proxy.scrollTo(item, anchor: .bottom)
            }
        }
    }

    /// One row from its slot: only this view reads the row, so a change to it redraws this row alone.
    private struct RowSlotView: View {
        let slot: RowSlot
        let model: ChatModel
        let host: any ChatScreenHost

        @_optimize(size) var body: some View {
            MessageRowView(row: slot.row, model: model, host: host)
        }
    }

    /// The transcript opens at its bottom. On iOS 18 the anchor governs only that initial offset: a size change (a
    /// row growing, the keyboard) follows `TranscriptFollowing`'s policy instead of pulling a reader who scrolled
    /// up back down (issue 50). iOS 17 has only the anchor for every change.
    private struct InitialBottomAnchor: ViewModifier {
        @_optimize(size) func body(content: Content) -> some View {
            if #available(iOS 18, *) {
                // A short chat still sits at the bottom (alignment); size changes are the policy's.
                content
                    .defaultScrollAnchor(.bottom, for: .initialOffset)
                    .defaultScrollAnchor(.bottom, for: .alignment)
            } else {
                content.defaultScrollAnchor(.bottom)
            }
        }
    }

    /// Where the reader is on iOS 17: the content's bottom edge in the scroll view, against the scroll view less
    /// its bottom inset (`TranscriptFollowing.Position`). The value changes only when the reader crosses the
    /// near-bottom line or a size changes, not on every frame. On iOS 18 `ScrollGeometryReader` reports instead.
    private struct ContentFrameReader: ViewModifier {
        let bottomInset: CGFloat
        let moved: (TranscriptFollowing.Position) -> Void

        @_optimize(size) func body(content: Content) -> some View {
            if #available(iOS 18, *) {
                content
            } else {
                content.onGeometryChange(for: TranscriptFollowing.Position.self) { geometry in
                    let frame = geometry.frame(in: .scrollView)
                    let visible = geometry.bounds(of: .scrollView).map { Double($0.height) } ?? .infinity
                    return TranscriptFollowing.Position(
                        contentBottom: frame.maxY, contentHeight: frame.height, visibleHeight: visible,
                        bottomInset: bottomInset)
                } action: { moved($0) }
            }
        }
    }

    /// Where the reader is on iOS 18: the scroll view's own geometry, its visible rect and content insets.
    private struct ScrollGeometryReader: ViewModifier {
        let moved: (TranscriptFollowing.Position) -> Void

        @_optimize(size) func body(content: Content) -> some View {
            if #available(iOS 18, *) {
                content.onScrollGeometryChange(for: TranscriptFollowing.Position.self) { geometry in
                    TranscriptFollowing.Position(
                        contentHeight: geometry.contentSize.height, visibleTop: geometry.visibleRect.minY,
                        containerHeight: geometry.containerSize.height, bottomInset: geometry.contentInsets.bottom)
                } action: { _, position in
                    moved(position)
                }
            } else {
                content
            }
        }
    }
#endif
