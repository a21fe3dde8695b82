import JPEGCodec

/// What every fuzz target demands of one decode: a decoded buffer that holds its whole geometry, or one of the
/// two documented errors. Anything else traps here (this is the harness, not the SDK), and libFuzzer saves the
/// input that did it.
func checkDecode(_ decode: () throws(CodecError) -> DecodedImage) {
    do {
        let pixels = try decode().pixels
        if pixels.bytes.count < pixels.height * pixels.bytesPerRow {
            fatalError("decoded buffer smaller than its geometry")
        }
    } catch {
        // Both cases are documented outcomes, and the typed throw allows no other error; a new case stops this
        // switch compiling until someone decides whether it is one.
        switch error {
        case .invalidImage, .imageTooLarge: break
        }
    }
}
