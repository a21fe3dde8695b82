#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI

    /// An image fitted to the screen that zooms with a pinch (up to `maximumScale`) or a double tap, and pans with a
    /// drag while zoomed, never past its edges. VoiceOver zooms it with the zoom gesture's action. Zoom changes
    /// are animated unless Reduce Motion is on.
    struct ZoomableImage: View {
        let image: UIImage
        /// The space the image is fitted into (the viewer's size).
        let containerSize: CGSize

        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @State private var scale: CGFloat = 1
        @State private var settledScale: CGFloat = 1
        @State private var offset: CGSize = .zero
        @State private var settledOffset: CGSize = .zero

        static let maximumScale: CGFloat = 4
        static let doubleTapScale: CGFloat = 2.5

        var body: some View {
            Image(uiImage: image)
                .resizable()
                .scaledToFit()
                .scaleEffect(scale)
                .offset(offset)
                .frame(width: containerSize.width, height: containerSize.height)
                .contentShape(Rectangle())
                .gesture(magnify.simultaneously(with: pan))
                .onTapGesture(count: 2) { toggleZoom() }
                .accessibilityAddTraits(.isImage)
                .accessibilityZoomAction { action in
                    switch action.direction {
                    case .zoomIn: zoom(to: min(settledScale * 1.5, Self.maximumScale))
                    case .zoomOut: zoom(to: max(settledScale / 1.5, 1))
                    @unknown default: break
                    }
                }
        }

        private var magnify: some Gesture {
            MagnifyGesture()
                .onChanged { value in
                    scale = min(max(settledScale * value.magnification, 1), Self.maximumScale)
                    offset = clamped(offset)
                }
                .onEnded { _ in
                    settledScale = scale
                    offset = clamped(offset)
                    settledOffset = offset
                }
        }

        private var pan: some Gesture {
            DragGesture()
                .onChanged { value in
                    guard scale > 1 else { return }
                    offset = clamped(CGSize(
                        width: settledOffset.width + value.translation.width,
                        height: settledOffset.height + value.translation.height))
                }
                .onEnded { _ in settledOffset = offset }
        }

        private func toggleZoom() {
            zoom(to: settledScale > 1 ? 1 : Self.doubleTapScale)
        }

        private func zoom(to target: CGFloat) {
            withAnimation(reduceMotion ? nil : .spring(duration: 0.3)) {
                scale = target
                settledScale = target
                offset = clamped(target > 1 ? offset : .zero)
                settledOffset = offset
            }
        }

        /// `proposed` limited so the zoomed image still covers the centre: at most half the overflow each way.
        private func clamped(_ proposed: CGSize) -> CGSize {
            let fitted = fittedSize
            let limitX = max(0, (fitted.width * scale - containerSize.width) / 2)
            let limitY = max(0, (fitted.height * scale - containerSize.height) / 2)
            return CGSize(
                width: min(max(proposed.width, -limitX), limitX),
                height: min(max(proposed.height, -limitY), limitY))
        }

        /// The image's size when fitted into the container at scale 1.
        private var fittedSize: CGSize {
            let size = image.size
            guard size.width > 0, size.height > 0, containerSize.width > 0, containerSize.height > 0 else {
                return containerSize
            }
            let factor = min(containerSize.width / size.width, containerSize.height / size.height)
            return CGSize(width: size.width * factor, height: size.height * factor)
        }
    }
#endif
