#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import ReceptionCore
    import SwiftUI

    /// A confirmed photo full screen (seed 001 "Viewing photos"): pinch and double-tap zoom, drag while zoomed, a
    /// swipe down on the fitted photo and a close control to close it. The photo is decoded for the screen (twice its
    /// pixel size, for zooming), not at full size.
    struct PhotoViewer: View {
        let attachment: Attachment
        let model: ChatModel

        @Environment(\.dismiss) private var dismiss
        @Environment(\.photoDecoder) private var decoder
        @Environment(\.displayScale) private var displayScale
        @State private var phase = PhotoPhase.loading
        @State private var attempt = 0
        /// How far a swipe down has gone towards closing (the backdrop fades by it).
        @State private var dismissProgress = 0.0

        /// The viewer's image is never decoded beyond this many pixels on its longest side.
        static let maximumPixelSize = 4096

        private struct LoadRequest: Equatable {
            var maxPixelSize: Int
            var attempt: Int
        }

        @inline(never) @_optimize(size) var body: some View {
            GeometryReader { geometry in screen(geometry) }
                .overlay(alignment: .topTrailing) { closeButton }
                .environment(\.colorScheme, .dark)
                // The VoiceOver escape gesture (two-finger Z) closes the viewer, as the close control does.
                .accessibilityAction(.escape) { [dismiss] in dismiss() }

                // The chat shows through as a swipe down fades the backdrop.
                .presentationBackground(.clear)
                .statusBarHidden()
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).

        /// The backdrop and the photo in its phase, loaded for the screen's size.
        @inline(never) @_optimize(size) private func screen(_ geometry: GeometryProxy) -> some View {
            let pixels = min(
                PhotoKey.pixelSize(points: max(geometry.size.width, geometry.size.height) * 2, scale: displayScale),
                Self.maximumPixelSize)
            return ZStack { layers(geometry.size) }
                .task(id: LoadRequest(maxPixelSize: pixels, attempt: attempt)) { await load(maxPixelSize: pixels) }
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func layers(_ size: CGSize) -> some View {
            Color.black.opacity(1 - dismissProgress * 0.6).ignoresSafeArea()
            switch phase {
            case .loaded(let image):
                ZoomableImage(
                    image: image, containerSize: size, close: { [dismiss] in dismiss() },
                    dismissProgress: $dismissProgress)
                    .accessibilityLabel(model.texts.text(.viewPhoto))
                    .accessibilityIgnoresInvertColors()
                    // Pinch, drag and swipe-down keep their left-to-right geometry in a right-to-left chat: the
                    // photo is not mirrored and moves the way the finger goes. The close control (outside) stays
                    // on the chat's trailing side.
                    .environment(\.layoutDirection, .leftToRight)
            case .loading:
                ProgressView().tint(.white)
            case .failed:
                Button { attempt += 1 } label: { retryLabel }
                    .buttonStyle(.plain)
            }
        }

        /// The failed photo's retry control.
        @inline(never) @_optimize(size) private var retryLabel: some View {
            VStack(spacing: 8) { retryContent }
                .foregroundStyle(.white)
                .padding()
                .minimumTapTarget()
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var retryContent: some View {
            Image(systemName: "arrow.clockwise.circle").imageScale(.large)
            Text(verbatim: model.texts.text(.photoFailed)).chatFont(.body)
        }

        @inline(never) @_optimize(size) private var closeButton: some View {
            Button { [dismiss] in dismiss() } label: { closeLabel }
                .buttonStyle(.plain)
                // A hardware keyboard's Escape closes the viewer, whatever has focus.
                .keyboardShortcut(.cancelAction)
                .padding()
                .accessibilityLabel(model.texts.text(.close))
        }

        @inline(never) @_optimize(size) private var closeLabel: some View {
            Image(systemName: "xmark")
                .font(.title3.weight(.semibold))
                .foregroundStyle(.white)
                .frame(minWidth: 44, minHeight: 44)
                .background(.black.opacity(0.45), in: Circle())
                .contentShape(Circle())
        }

        @inline(never) @_optimize(size) private func load(maxPixelSize: Int) async {
            if phase.image == nil { phase = .loading }
            // Not cached: a screen-sized image would push a screen of thumbnails out of the cache.
            if let loaded = await PhotoPhase.load(
                .confirmed(attachment), model: model, decoder: decoder, maxPixelSize: maxPixelSize)
            {
                phase = loaded
            }
        }
    }
#endif
