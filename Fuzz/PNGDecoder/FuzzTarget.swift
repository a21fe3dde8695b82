import ImagePipeline
import JPEGCodec

/// libFuzzer entry for the PNG decoder, with chunk CRCs not checked so that mutated inputs get past the chunk walk
/// into inflating, unfiltering and conversion. Built and run by `scripts/fuzz` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    checkDecode { () throws(CodecError) in try PNGDecoder.decode(file, verifiesChecksums: false) }
    return 0
}
