import Foundation
import Testing
@testable import Conversation

/// The photo viewer's gestures (issue 39): a double tap zooms at the tapped spot, a drag down on the fitted photo
/// closes the viewer, and a zoomed photo never leaves a gap at its edges.
@Suite("PhotoViewerGeometryTests")
struct PhotoViewerGeometryTests {
    /// A 4:3 photo in a 390×844 portrait viewer: fitted 390×292.5.
    let geometry = PhotoViewerGeometry(
        containerSize: CGSize(width: 390, height: 844), imageSize: CGSize(width: 4032, height: 3024))

    @Test("the fitted size keeps the photo's aspect ratio inside the viewer")
    func fitted() {
        #expect(geometry.fittedSize == CGSize(width: 390, height: 292.5))
        let unknown = PhotoViewerGeometry(containerSize: CGSize(width: 10, height: 20), imageSize: .zero)
        #expect(unknown.fittedSize == CGSize(width: 10, height: 20))
    }

    @Test("a double tap zooms in keeping the tapped spot under the finger")
    func doubleTapKeepsTheSpot() {
        let point = CGPoint(x: 250, y: 450)
        let answer = geometry.doubleTap(at: point, scale: 1)
        #expect(answer.scale == PhotoViewerGeometry.doubleTapScale)
        // Where the tapped content lands: centre + (point - centre) * scale + offset.
        let landedX = 195 + (point.x - 195) * answer.scale + answer.offset.width
        #expect(abs(landedX - point.x) < 0.001)
        // 292.5 × 2.5 = 731.25 points do not fill the 844-point height: vertically the photo stays centred.
        #expect(answer.offset.height == 0)
        // A photo that fills the viewer once zoomed keeps the spot on both axes.
        let square = PhotoViewerGeometry(
            containerSize: CGSize(width: 390, height: 844), imageSize: CGSize(width: 3000, height: 3000))
        let both = square.doubleTap(at: point, scale: 1)
        #expect(abs(195 + (point.x - 195) * both.scale + both.offset.width - point.x) < 0.001)
        #expect(abs(422 + (point.y - 422) * both.scale + both.offset.height - point.y) < 0.001)
    }

    @Test("a double tap near an edge zooms as far towards it as the edge allows, never showing a gap")
    func doubleTapAtTheEdge() {
        let answer = geometry.doubleTap(at: CGPoint(x: 0, y: 0), scale: 1)
        let scaled = CGSize(width: 390 * answer.scale, height: 292.5 * answer.scale)
        #expect(abs(answer.offset.width - (scaled.width - 390) / 2) < 0.001, "clamped to the left edge")
        // 292.5 × 2.5 = 731.25 does not fill 844 points: it stays centred vertically.
        #expect(answer.offset.height == 0)
    }

    @Test("a double tap on a zoomed photo goes back to the fitted photo, centred")
    func doubleTapZoomsOut() {
        let answer = geometry.doubleTap(at: CGPoint(x: 10, y: 10), scale: 3)
        #expect(answer.scale == 1)
        #expect(answer.offset == .zero)
    }

    @Test("a drag down on the fitted photo closes the viewer past its distance, or with a flick")
    func dragDownCloses() {
        let short = CGSize(width: 5, height: 60)
        #expect(!geometry.closesOnDragEnd(translation: short, predictedTranslation: short, scale: 1, pinched: false))
        #expect(geometry.closesOnDragEnd(
            translation: CGSize(width: 0, height: PhotoViewerGeometry.dismissDistance), predictedTranslation: .zero,
            scale: 1, pinched: false))
        #expect(geometry.closesOnDragEnd(
            translation: short, predictedTranslation: CGSize(width: 0, height: 400), scale: 1, pinched: false), "a flick")
    }

    @Test("a drag does not close a zoomed photo, nor one going up or sideways")
    func dragThatDoesNotClose() {
        let far = CGSize(width: 0, height: 500)
        #expect(!geometry.closesOnDragEnd(translation: far, predictedTranslation: far, scale: 2, pinched: false), "zoomed: a pan")
        let up = CGSize(width: 0, height: -500)
        #expect(!geometry.closesOnDragEnd(translation: up, predictedTranslation: up, scale: 1, pinched: false))
        let sideways = CGSize(width: 300, height: 130)
        #expect(!geometry.closesOnDragEnd(translation: sideways, predictedTranslation: sideways, scale: 1, pinched: false))
    }

    @Test("the backdrop fades with the drag down, from 0 to 1, and not while zoomed")
    func dismissProgress() {
        #expect(geometry.dismissProgress(translation: .zero, scale: 1, pinched: false) == 0)
        #expect(geometry.dismissProgress(translation: CGSize(width: 0, height: 120), scale: 1, pinched: false) == 0.5)
        #expect(geometry.dismissProgress(translation: CGSize(width: 0, height: 10_000), scale: 1, pinched: false) == 1)
        #expect(geometry.dismissProgress(translation: CGSize(width: 0, height: 120), scale: 2, pinched: false) == 0)
    }

    @Test("a pinch in the gesture stops the drag from closing or fading, even once the pinch ended at scale 1")
    func pinchStopsTheDismissDrag() {
        let down = CGSize(width: 0, height: 500)
        #expect(geometry.dragRole(scale: 1, pinched: true) == .ignored)
        #expect(geometry.dragRole(scale: 3, pinched: true) == .pan, "a zoomed photo pans as it is pinched")
        #expect(!geometry.closesOnDragEnd(translation: down, predictedTranslation: down, scale: 1, pinched: true))
        #expect(geometry.dismissProgress(translation: down, scale: 1, pinched: true) == 0)
        #expect(geometry.closesOnDragEnd(translation: down, predictedTranslation: down, scale: 1, pinched: false))
    }

    @Test("a drag pans a zoomed photo and moves a fitted one towards closing")
    func dragRoles() {
        #expect(geometry.dragRole(scale: 2, pinched: false) == .pan)
        #expect(geometry.dragRole(scale: 1, pinched: false) == .dismiss)
    }

    @Test("a pan is clamped to the overflow, and a non-finite proposal stays put")
    func clamping() {
        let clamped = geometry.clamped(CGSize(width: 10_000, height: -10_000), scale: 4)
        #expect(abs(clamped.width - (390 * 4 - 390) / 2) < 0.001)
        #expect(abs(clamped.height + (292.5 * 4 - 844) / 2) < 0.001)
        #expect(geometry.clamped(CGSize(width: CGFloat.nan, height: 0), scale: 4).width == 0)
    }
}
