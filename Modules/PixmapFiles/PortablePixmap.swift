// Netpbm files for the tools, the tests and the benchmarks, kept out of the codec so an app that links the codec
// does not carry them (Docs/Footprint.md). scripts/arm-lab compiles this file into its one Embedded Swift module
// with the codec (built with -D ARM_LAB, where there is no JPEGCodec module to import).
#if !ARM_LAB
import JPEGCodec
#endif

/// Reads binary Netpbm images (P6 colour, P5 grey, 8-bit), the simplest lossless input the `reception-image`
/// tool, the tests and the benchmark share. Malformed headers or short data throw `invalid_image`.
package enum PortablePixmap {
    /// Parses a whole `.ppm`/`.pgm` file. The samples stay in `bytes`' own buffer, moved to its front, when the
    /// caller hands the array over (a 12 MP file is then read once into memory, not copied a second time); an array
    /// the caller keeps using is copied as before.
    package static func decode(_ bytes: consuming [UInt8]) throws(CodecError) -> Bitmap {
        var position = 0
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw .invalidImage }
        let format: BitmapFormat
        switch bytes[1] {
        case UInt8(ascii: "6"): format = .rgb8
        case UInt8(ascii: "5"): format = .gray8
        default: throw .invalidImage
        }
        position = 2
        let width = try number(bytes, &position)
        let height = try number(bytes, &position)
        let maximum = try number(bytes, &position)
        // Exactly one whitespace byte separates the header from the samples.
        guard maximum == 255, position < bytes.count, isSpace(bytes[position]) else { throw .invalidImage }
        position += 1
        guard (1...Bitmap.maximumDimension).contains(width), (1...Bitmap.maximumDimension).contains(height)
        else { throw .invalidImage }
        let needed = width * height * format.bytesPerPixel
        guard bytes.count - position >= needed else { throw .invalidImage }
        var samples = bytes
        // One block move (`removeSubrange` moved the bytes one by one in Embedded Swift: 11.6 M of a 1 MP arm64
        // encode's instructions); a file has trailing bytes rarely, so the slower trim is left for them.
        samples.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress, position > 0 { base.copyMemory(from: base + position, byteCount: needed) }
        }
        if samples.count > needed { samples.removeLast(samples.count - needed) }
        return Bitmap(width: width, height: height, format: format, bytes: samples)
    }

    /// Encodes a buffer as P6 (colour; alpha is dropped) or P5 (grey), for tests and tools.
    package static func encode(_ image: Bitmap) -> [UInt8] {
        let grey = image.format == .gray8
        var out = header(image)
        if isTight(image) {
            let samples = image.height * image.bytesPerRow
            return [UInt8](unsafeUninitializedCapacity: out.count + samples) { target, initialized in
                let raw = UnsafeMutableRawBufferPointer(target)
                out.withUnsafeBytes { raw.copyMemory(from: $0) }
                image.bytes.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: raw[out.count...]).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: $0[0..<samples]))
                }
                initialized = out.count + samples
            }
        }
        for y in 0..<image.height {
            let row = y * image.bytesPerRow
            for x in 0..<image.width {
                let pixel = row + x * image.format.bytesPerPixel
                if grey { out.append(image.bytes[pixel]) } else { out += image.bytes[pixel..<(pixel + 3)] }
            }
        }
        return out
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The next decimal header field, skipping whitespace and `#` comments; at most 9 digits.
    private static func number(_ bytes: [UInt8], _ position: inout Int) throws(CodecError) -> Int {
        while position < bytes.count {
            if isSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            } else {
                break
            }
        }
        var value = 0
        var digits = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            guard digits < 9 else { throw .invalidImage }
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw .invalidImage }
        return value
    }

    /// The P6 (colour) or P5 (grey) header of `image`: what precedes its samples in a file.
    package static func header(_ image: Bitmap) -> [UInt8] {
        Array("\(image.format == .gray8 ? "P5" : "P6")\n\(image.width) \(image.height)\n255\n".utf8)
    }

    /// Whether `image`'s bytes are already a pixmap's samples: grey or RGB rows with no padding, so a writer can
    /// follow the header with them as they are.
    package static func isTight(_ image: Bitmap) -> Bool {
        image.format != .rgba8 && image.bytesPerRow == image.width * image.format.bytesPerPixel
    }
}
