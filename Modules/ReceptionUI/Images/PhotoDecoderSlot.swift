#if canImport(SwiftUI) && canImport(UIKit)
    /// Holds one screen's `PhotoDecoder`, made on first use. SwiftUI evaluates a `@State` property's initial value
    /// each time the parent renders and keeps only the first, so a screen stores this cheap slot in `@State` and
    /// the decoder (an actor with its image cache) exists once per screen, not once per render.
    @MainActor
    final class PhotoDecoderSlot {
        private var made: PhotoDecoder?

        /// The screen's decoder.
        @inline(never) @_optimize(size) var decoder: PhotoDecoder {
            if let made { return made }
            let decoder = PhotoDecoder()
            made = decoder
            return decoder
        }
    }
#endif
