#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// An image fitted to the screen that zooms with a pinch (up to `PhotoViewerGeometry.maximumScale`) or a double
    /// tap at the tapped spot, pans with a drag while zoomed, never past its edges, and on the fitted image closes
    /// the viewer with a drag or flick down (the backdrop fading as it goes) in which no pinch took part; a pinch
    /// puts the photo back in place and the backdrop back to opaque. VoiceOver zooms it with the zoom
    /// gesture's action. Every number comes from `PhotoViewerGeometry` (tested on Linux); zoom changes are
    /// animated unless Reduce Motion is on.
    struct ZoomableImage: View {
        let image: UIImage
        /// The space the image is fitted into (the viewer's size).
        let containerSize: CGSize
        /// A drag down on the fitted image: close the viewer.
        let close: () -> Void
        /// How far a drag down is towards closing, 0…1, for the viewer's backdrop.
        @Binding var dismissProgress: Double

        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @State private var scale: CGFloat = 1
        @State private var settledScale: CGFloat = 1
        @State private var offset: CGSize = .zero
        @State private var settledOffset: CGSize = .zero
        /// The fitted image's drag towards closing.
        @State private var dismissOffset: CGSize = .zero
        /// A pinch is in progress.
        @State private var pinching = false
        /// A pinch took part in the drag in progress: that drag neither pans nor closes until it ends.
        @State private var pinchedInDrag = false
        /// The drag in progress's translation so far (zero between drags), so that a pinch ending mid-drag settles
        /// the offset without the drag's part, which the drag goes on adding.
        @State private var dragTranslation: CGSize = .zero

        @_optimize(size) private var geometry: PhotoViewerGeometry {
            PhotoViewerGeometry(containerSize: containerSize, imageSize: image.size)
        }

        @inline(never) @_optimize(size) var body: some View {
            Image(uiImage: image)
                .resizable()
                .scaledToFit()
                .scaleEffect(scale)
                .offset(x: offset.width + dismissOffset.width, y: offset.height + dismissOffset.height)
                .frame(width: containerSize.width, height: containerSize.height)
                .contentShape(Rectangle())
                .gesture(magnify.simultaneously(with: pan))
                .gesture(doubleTap)
                .accessibilityAddTraits(.isImage)
                .accessibilityZoomAction { zoomAction($0) }
        }

        // Each gesture's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).

        @inline(never) @_optimize(size) private func zoomAction(_ action: AccessibilityZoomGestureAction) {
            switch action.direction {
            case .zoomIn: zoom(to: min(settledScale * 1.5, PhotoViewerGeometry.maximumScale), offset: offset)
            case .zoomOut: zoom(to: max(settledScale / 1.5, 1), offset: offset)
            @unknown default: break
            }
        }

        @inline(never) @_optimize(size) private var magnify: some Gesture {
            MagnifyGesture()
                .onChanged { pinchChanged($0.magnification) }
                .onEnded { _ in pinchEnded() }
        }

        @inline(never) @_optimize(size) private func pinchChanged(_ magnification: CGFloat) {
            pinching = true
            resetDismissDrag(animated: false)
            scale = min(max(settledScale * magnification, 1), PhotoViewerGeometry.maximumScale)
            offset = geometry.clamped(offset, scale: scale)
        }

        @inline(never) @_optimize(size) private func pinchEnded() {
            settledScale = scale
            offset = geometry.clamped(offset, scale: scale)
            // The drag that goes on with one finger adds its whole translation to `settledOffset`.
            settledOffset = CGSize(
                width: offset.width - dragTranslation.width, height: offset.height - dragTranslation.height)
            pinching = false
            resetDismissDrag(animated: false)
        }

        @inline(never) @_optimize(size) private var pan: some Gesture {
            DragGesture()
                .onChanged { dragChanged($0) }
                .onEnded { dragEnded($0) }
        }

        @inline(never) @_optimize(size) private func dragChanged(_ value: DragGesture.Value) {
            if pinching { pinchedInDrag = true }
            dragTranslation = value.translation
            switch geometry.dragRole(scale: scale, pinched: pinchedInDrag) {
            case .pan:
                offset = geometry.clamped(
                    CGSize(
                        width: settledOffset.width + value.translation.width,
                        height: settledOffset.height + value.translation.height),
                    scale: scale)
            case .dismiss:
                dismissOffset = CGSize(width: 0, height: max(0, value.translation.height))
                dismissProgress = geometry.dismissProgress(
                    translation: value.translation, scale: scale, pinched: pinchedInDrag)
            case .ignored:
                break
            }
        }

        @inline(never) @_optimize(size) private func dragEnded(_ value: DragGesture.Value) {
            let closes = geometry.closesOnDragEnd(
                translation: value.translation, predictedTranslation: value.predictedEndTranslation,
                scale: scale, pinched: pinchedInDrag || pinching)
            pinchedInDrag = false
            dragTranslation = .zero
            settledOffset = offset
            if closes { return close() }
            resetDismissDrag(animated: true)
        }

        /// The photo back in place and the backdrop opaque: after a drag that did not close, and whenever a pinch
        /// takes over (so the drag towards closing never leaks into the zoomed photo's position).
        @inline(never) @_optimize(size) private func resetDismissDrag(animated: Bool) {
            guard dismissOffset != .zero || dismissProgress != 0 else { return }
            withAnimation(animated && !reduceMotion ? .spring(duration: 0.3) : nil) {
                dismissOffset = .zero
                dismissProgress = 0
            }
        }

        @_optimize(size) private var doubleTap: some Gesture {
            SpatialTapGesture(count: 2).onEnded { doubleTapped(at: $0.location) }
        }

        @inline(never) @_optimize(size) private func doubleTapped(at location: CGPoint) {
            let answer = geometry.doubleTap(at: location, scale: settledScale)
            zoom(to: answer.scale, offset: answer.offset)
        }

        @inline(never) @_optimize(size) private func zoom(to target: CGFloat, offset proposed: CGSize) {
            withAnimation(reduceMotion ? nil : .spring(duration: 0.3)) {
                scale = target
                settledScale = target
                offset = target > 1 ? geometry.clamped(proposed, scale: target) : .zero
                settledOffset = offset
            }
        }
    }
#endif
