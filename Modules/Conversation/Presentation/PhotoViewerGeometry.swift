#if canImport(CoreGraphics)
    import CoreGraphics
#endif
import Foundation

/// The full-screen photo viewer's gestures as numbers (seed 001 "Viewing photos"), decided here so they are tested
/// on Linux; `ZoomableImage` and `PhotoViewer` only feed them touches and apply the answers. Sizes and points are
/// in the viewer's points; an offset moves the image's centre from the viewer's centre.
public struct PhotoViewerGeometry: Sendable, Equatable {
    /// The viewer's size.
    public var containerSize: CGSize
    /// The photo's pixel (or point) size, for its aspect ratio.
    public var imageSize: CGSize

    /// The largest zoom a pinch reaches.
    public static let maximumScale: CGFloat = 4
    /// The zoom a double tap goes to from the fitted photo.
    public static let doubleTapScale: CGFloat = 2.5
    /// A downward drag of the fitted photo this far (points) closes the viewer.
    public static let dismissDistance: CGFloat = 120
    /// A downward flick whose predicted end lies this far below closes it too.
    public static let dismissPredictedDistance: CGFloat = 260

    /// The geometry of `imageSize` shown in `containerSize`.
    @inline(never) @_optimize(size) public init(containerSize: CGSize, imageSize: CGSize) {
        self.containerSize = containerSize
        self.imageSize = imageSize
    }

    /// The photo's size fitted into the viewer at scale 1 (the viewer's size when either size is unknown).
    @inline(never) @_optimize(size) public var fittedSize: CGSize {
        guard imageSize.width > 0, imageSize.height > 0, containerSize.width > 0, containerSize.height > 0 else {
            return containerSize
        }
        let factor = min(containerSize.width / imageSize.width, containerSize.height / imageSize.height)
        return CGSize(width: imageSize.width * factor, height: imageSize.height * factor)
    }

    /// `proposed` limited so the zoomed photo never leaves a gap at an edge it overflows, and stays centred along
    /// an axis where it does not fill the viewer.
    @inline(never) @_optimize(size) public func clamped(_ proposed: CGSize, scale: CGFloat) -> CGSize {
        let fitted = fittedSize
        let limitX = max(0, (fitted.width * scale - containerSize.width) / 2)
        let limitY = max(0, (fitted.height * scale - containerSize.height) / 2)
        return CGSize(
            width: Self.finite(min(max(proposed.width, -limitX), limitX)),
            height: Self.finite(min(max(proposed.height, -limitY), limitY)))
    }

    /// What a double tap at `point` does: from the fitted photo it zooms to `doubleTapScale` keeping the tapped
    /// spot under the finger (as far as the edges allow); zoomed in, it goes back to the fitted photo.
    @inline(never)
    @_optimize(size) public func doubleTap(at point: CGPoint, scale: CGFloat) -> (scale: CGFloat, offset: CGSize) {
        guard scale <= 1 else { return (1, .zero) }
        let target = Self.doubleTapScale
        // The image scales about the viewer's centre: the spot at `point - centre` lands at `target` times that,
        // plus the offset, so it stays put when the offset is `(centre - point) * (target - 1)`.
        let dx = (containerSize.width / 2 - point.x) * (target - 1)
        let dy = (containerSize.height / 2 - point.y) * (target - 1)
        return (target, clamped(CGSize(width: dx, height: dy), scale: target))
    }

    /// What a drag does now: on a zoomed photo it pans; on the fitted photo it moves the photo towards closing,
    /// unless a pinch is (or was) part of the same drag, so a quick pinch with a downward drift never closes the
    /// viewer. `pinched` stays true from a pinch's first change until the drag ends.
    public enum DragRole: Sendable, Hashable {
        /// Move the zoomed photo, within its edges.
        case pan
        /// Move the fitted photo down, fading the backdrop, towards closing.
        case dismiss
        /// Leave the fitted photo where the pinch puts it; the drag towards closing is zero.
        case ignored
    }

    /// The role of a drag at `scale`, `pinched` when a pinch took part in the gesture.
    @inline(never) @_optimize(size) public func dragRole(scale: CGFloat, pinched: Bool) -> DragRole {
        if scale > 1 { return .pan }
        return pinched ? .ignored : .dismiss
    }

    /// Whether a drag that ended with `translation` (and `predictedTranslation`, its flick's predicted end)
    /// closes the viewer: only on the fitted photo, with no pinch in the gesture (`pinched`), and only downwards
    /// and mostly vertical.
    @inline(never) @_optimize(size) public func closesOnDragEnd(
        translation: CGSize, predictedTranslation: CGSize, scale: CGFloat, pinched: Bool
    ) -> Bool {
        guard dragRole(scale: scale, pinched: pinched) == .dismiss, translation.height > 0,
              abs(translation.height) > abs(translation.width)
        else { return false }
        return translation.height >= Self.dismissDistance || predictedTranslation.height >= Self.dismissPredictedDistance
    }

    /// How far a downward drag of the fitted photo is towards closing, 0…1 (the backdrop fades by it): 0 on a
    /// zoomed photo and whenever a pinch took part in the gesture.
    @inline(never)
    @_optimize(size) public func dismissProgress(translation: CGSize, scale: CGFloat, pinched: Bool) -> Double {
        guard dragRole(scale: scale, pinched: pinched) == .dismiss, translation.height > 0 else { return 0 }
        return Double(min(translation.height / (Self.dismissDistance * 2), 1))
    }

    @_optimize(size) private static func finite(_ value: CGFloat) -> CGFloat { value.isFinite ? value : 0 }
}
