import ImagePipeline
import JPEGCodec

/// libFuzzer entry for the TIFF decoder (libtiff over the buffer: strips, tiles, every compression libtiff reads,
/// the orientation and ICC tags) and the header reader behind `declaredSize`. Built and run by `scripts/fuzz`
/// (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFFDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    _ = TIFFDecoder.declaredSize(Array(file))
    checkDecode { () throws(CodecError) in try TIFFDecoder.decode(file, minimumLongestEdge: nil) }
    return 0
}
