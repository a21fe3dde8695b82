import ImagePipeline
import JPEGCodec

/// libFuzzer entry for the GIF decoder (giflib, first frame). Built and run by `scripts/fuzz` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    checkDecode { () throws(CodecError) in try GIFDecoder.decode(file, minimumLongestEdge: nil) }
    return 0
}
