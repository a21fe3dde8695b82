import ImagePipeline
import JPEGCodec

/// libFuzzer entry for the WebP decoder (libwebp and its demuxer: lossy, lossless, alpha, the first frame of an
/// animation, the ICCP and EXIF chunks). Built and run by `scripts/fuzz` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    checkDecode { () throws(CodecError) in try WebPDecoder.decode(file, minimumLongestEdge: nil) }
    return 0
}
