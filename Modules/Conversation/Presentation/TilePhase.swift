/// Where a photo view is in showing its image, and what it keeps of it (issue 50). A tile holds its decoded image
/// only while it is on screen: once it scrolls away it lets go, so the chat's decode cache (48 MB by default) is the
/// only owner of thumbnails and really bounds their memory, however many photos the reader passed. A tile that
/// comes back asks the cache again (a hit costs no decode) and keeps drawing nothing older meanwhile. Generic over
/// the image type so that the rule is tested on Linux; the SwiftUI tiles use it with `UIImage`.
package indirect enum TilePhase<Image> {
    /// Downloading or decoding, or off screen.
    case loading
    /// Decoded at the drawn size.
    case loaded(Image)
    /// The download or the decode failed; tapping tries again where the view allows it.
    case failed

    /// The image, while loaded.
    @inline(never) @_optimize(size) package var image: Image? {
        if case .loaded(let image) = self { return image }
        return nil
    }

    /// The tile left the screen: a loaded image is let go (the cache keeps it while it has room); a failure is
    /// remembered, so the tile does not retry by itself when it returns.
    @inline(never) @_optimize(size) package mutating func leftScreen() {
        if case .loaded = self { self = .loading }
    }

    /// A load finished: kept only while the tile is on screen (a load that ends after the tile scrolled away would
    /// hold the image again).
    @inline(never) @_optimize(size) package mutating func loadFinished(_ phase: TilePhase<Image>, onScreen: Bool) {
        guard onScreen else { return }
        self = phase
    }
}
