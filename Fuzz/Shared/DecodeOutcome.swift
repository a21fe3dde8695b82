import ImagePipeline
import ReceptionCore

/// What every fuzz target demands of one decode: a decoded buffer that holds its whole geometry, or one of the
/// two documented errors. Anything else traps here (this is the harness, not the SDK), and libFuzzer saves the
/// input that did it.
func checkDecode(_ decode: () throws(ReceptionError) -> DecodedImage) {
    do {
        let pixels = try decode().pixels
        if pixels.bytes.count < pixels.height * pixels.bytesPerRow {
            fatalError("decoded buffer smaller than its geometry")
        }
    } catch {
        if error.code != ReceptionError.Code.invalidImage && error.code != ReceptionError.Code.imageTooLarge {
            fatalError("unexpected error code \(error.code)")
        }
    }
}
