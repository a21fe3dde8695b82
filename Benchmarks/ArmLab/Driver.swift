// The arm64 build of `reception-image` for `make arm-lab` (scripts/arm-lab): the codec's sources, this file and
// Modules/reception-image/ImageArguments.swift compiled as one Embedded Swift module for aarch64, linked statically
// against Debian's arm64 C library and run under qemu-aarch64. No Foundation exists there, so the few C calls it
// needs (files, stderr) are declared here. Its `encode`, `decode` and `prepare` take `reception-image`'s arguments
// (the same parser) and write the same bytes; `prepare` is the first round of spec 7.9's preparation (the longest
// edge fitted to 2,048 px, quality 0.85), which is what a camera photo under 1 MiB at 0.85 gets from
// `reception-image prepare`. Not part of the package: SwiftPM never builds this folder.

@_extern(c, "fopen") func cOpen(_ path: UnsafePointer<UInt8>, _ mode: UnsafePointer<UInt8>) -> OpaquePointer?
@_extern(c, "fclose") func cClose(_ file: OpaquePointer) -> Int32
@_extern(c, "fread") func cRead(_ to: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ file: OpaquePointer) -> Int
@_extern(c, "fwrite") func cWrite(_ from: UnsafeRawPointer?, _ size: Int, _ count: Int, _ file: OpaquePointer) -> Int
@_extern(c, "fseek") func cSeek(_ file: OpaquePointer, _ offset: Int, _ whence: Int32) -> Int32
@_extern(c, "ftell") func cTell(_ file: OpaquePointer) -> Int
@_extern(c, "write") func cWriteDescriptor(_ descriptor: Int32, _ from: UnsafeRawPointer?, _ count: Int) -> Int

enum ArmLabFiles {
    /// `text` as a NUL-terminated C string.
    static func cString(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    /// The whole file, or nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let name = cString(path), mode = cString("rb")
        guard let file = cOpen(name, mode) else { return nil }
        defer { _ = cClose(file) }
        guard cSeek(file, 0, 2) == 0 else { return nil }
        let size = cTell(file)
        guard size >= 0, cSeek(file, 0, 0) == 0 else { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { target, initialized in
            initialized = size == 0 ? 0 : cRead(target.baseAddress, 1, size, file)
            complete = initialized == size
        }
        return complete ? bytes : nil
    }

    /// Writes `bytes` to `path`, replacing it; false when that fails.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        write([bytes], counts: [-1], to: path)
    }

    /// Writes the first `counts[i]` bytes of each of `parts` (all of it for -1) to `path`, one after another.
    static func write(_ parts: [[UInt8]], counts: [Int], to path: String) -> Bool {
        let name = cString(path), mode = cString("wb")
        guard let file = cOpen(name, mode) else { return false }
        var complete = true
        for (part, limit) in zip(parts, counts) {
            let count = limit < 0 ? part.count : min(limit, part.count)
            complete = complete && part.withUnsafeBytes { cWrite($0.baseAddress, 1, count, file) } == count
        }
        return cClose(file) == 0 && complete
    }

    /// One line on standard error.
    static func complain(_ message: String) {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { cWriteDescriptor(2, $0.baseAddress, $0.count) }
    }
}

/// The arm64 side of VectorPathTests (issue 40), `reception-image-arm64 vector-check`: the NEON inverse DCT against
/// the portable 32-bit transform on blocks within an encoder's range (every sample equal), and its 4×4 shortcut
/// against its own full passes on any 32-bit coefficients (equal whatever the input). Prints the counts; exit 1 on a
/// difference, with the seed.
enum ArmLabVectorCheck {
    static func run(seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> Int32 {
        #if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        var state = seed
        func next() -> UInt64 {  // xorshift64
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        func value(_ bound: Int32) -> Int32 { Int32(truncatingIfNeeded: next() % UInt64(2 * bound + 1)) - bound }
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { block.deallocate() }
        var vector = [UInt8](repeating: 0, count: 64), reference = vector
        var compared = 0, differing = 0
        for trial in 0..<20_000 {
            // Row and column bounds as the block loop passes them; coefficients past them are zero.
            let rows = Int(next() % 8) + 1, columns = trial % 2 == 0 ? Int(next() % 4) + 1 : Int(next() % 8) + 1
            block.update(repeating: 0, count: 64)
            let wide = trial % 3 == 0
            for v in 0..<rows {
                for u in 0..<columns {
                    // An encoder's range: a DC within ±2¹⁰ and AC within ±2⁷ keep every 16-bit stage unsaturated.
                    // One trial in three takes any 32-bit value instead, for the shortcut against the full passes.
                    block[v * 8 + u] = wide ? Int32(truncatingIfNeeded: next()) : value(v == 0 && u == 0 ? 1_023 : 127)
                }
            }
            vector.withUnsafeMutableBufferPointer { out in
                InverseDCT.transform8NEON(block, rows: rows, columns: columns, into: out.baseAddress!, stride: 8)
            }
            reference.withUnsafeMutableBufferPointer { out in
                if wide {
                    InverseDCT.transform8NEON(block, rows: rows, columns: 8, into: out.baseAddress!, stride: 8)
                } else {
                    InverseDCT.transform8Integer(block, rows: rows, into: out.baseAddress!, stride: 8)
                }
            }
            compared += 1
            if vector != reference { differing += 1 }
        }
        print("vector-check: inverse DCT (NEON, its 4x4 shortcut) \(compared) blocks, \(differing) differ, seed \(seed)")
        let colours = colourConversion()
        print("vector-check: YCbCr to RGB (NEON) \(colours.compared) pixels, every (Y, Cb, Cr), \(colours.differing) rows differ")
        let quantised = quantisation(seed: seed)
        print("vector-check: quantisation (NEON) \(quantised.compared) groups of eight blocks, \(quantised.differing) differ")
        let resampled = resampling(seed: seed)
        print("vector-check: area resampler (vector passes) \(resampled.compared) resizes, \(resampled.differing) differ")
        return differing == 0 && colours.differing == 0 && quantised.differing == 0 && resampled.differing == 0 ? 0 : 1
        #else
        return 2
        #endif
    }

    /// `ForwardDCT.quantize` (NEON without the AC clamp) against `quantizePortable`, coefficients and masks, on
    /// seeded groups of eight blocks at the magnitudes photos give; one group in four holds exact halves (samples
    /// that are multiples of 4 and a step of 8), where the rounding must go to even as the portable code's does.
    static func quantisation(seed: UInt64) -> (compared: Int, differing: Int) {
        var state = seed | 3
        func unit() -> Float {  // in [-1, 1)
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(Int32(truncatingIfNeeded: state >> 32)) / 2_147_483_648
        }
        let block = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 64)
        let fast = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: 66)
        let reference = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: 66)
        defer {
            block.deallocate()
            fast.deallocate()
            reference.deallocate()
        }
        var scanOrder = [Int32](repeating: 0, count: 64), multipliers = [Float](repeating: 0, count: 64)
        for k in 0..<64 { scanOrder[k] = Int32(ZigZag.naturalIndex[k]) }
        var compared = 0, differing = 0
        for trial in 0..<4_000 {
            let ties = trial % 4 == 3, scale: Float = [0.3, 4, 60, 2_000][trial % 4]
            for k in 0..<64 {
                multipliers[k] = ties ? 0.125 : 0.0005 + abs(unit()) * 0.1245
                for lane in 0..<8 { block[k][lane] = ties ? Float(Int(unit() * 500)) * 4 + 4 : unit() * scale }
            }
            multipliers.withUnsafeBufferPointer { m in
                scanOrder.withUnsafeBufferPointer { order in
                    ForwardDCT.quantize(
                        block, multipliers: m.baseAddress!, scanOrder: order.baseAddress!, clampAC: false, into: fast)
                    ForwardDCT.quantizePortable(
                        block, multipliers: m.baseAddress!, scanOrder: order.baseAddress!, clampAC: false,
                        into: reference)
                }
            }
            compared += 1
            for index in 0..<66 where fast[index] != reference[index] {
                differing += 1
                break
            }
        }
        return (compared, differing)
    }

    /// `AreaResampler.resize` against `resizeOneByOne` on seeded pictures: RGB, grey and RGBA, two to five taps,
    /// the same width or height, and widths that leave every tail of the vector loops.
    static func resampling(seed: UInt64) -> (compared: Int, differing: Int) {
        var state = seed | 1
        let sizes = [(97, 61, 40, 25), (3640, 24, 2048, 13), (120, 80, 67, 45), (64, 64, 64, 21), (64, 64, 17, 64),
                     (200, 9, 113, 5), (31, 257, 8, 99), (1001, 3, 1000, 3), (50, 40, 1, 1), (333, 77, 111, 30)]
        var compared = 0, differing = 0
        for (sw, sh, tw, th) in sizes {
            for format in [BitmapFormat.rgb8, .gray8, .rgba8] {
                var bytes = [UInt8](repeating: 0, count: sw * sh * format.bytesPerPixel)
                for i in bytes.indices {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    bytes[i] = UInt8(truncatingIfNeeded: state >> 32)
                }
                let image = Bitmap(width: sw, height: sh, format: format, bytes: bytes)
                compared += 1
                if AreaResampler.resize(image, width: tw, height: th).bytes
                    != AreaResampler.resizeOneByOne(image, width: tw, height: th).bytes { differing += 1 }
            }
        }
        return (compared, differing)
    }

    /// YCbCr → RGB (`YCbCr.convert`, NEON for whole groups of sixteen) against `convertOneByOne` for all 2²⁴
    /// triples: Y runs along a row of 256 + 5 pixels (so the one-by-one tail runs too), Cb and Cr fixed per row.
    static func colourConversion() -> (compared: Int, differing: Int) {
        let width = 261
        var luma = [UInt8](repeating: 0, count: width), cb = luma, cr = luma
        for x in 0..<width { luma[x] = UInt8(truncatingIfNeeded: x) }
        var vector = [UInt8](repeating: 0, count: 3 * width), reference = vector
        var compared = 0, differing = 0
        for blue in 0..<256 {
            for red in 0..<256 {
                for x in 0..<width { (cb[x], cr[x]) = (UInt8(blue), UInt8(red)) }
                YCbCr.convert(luma, cb, cr, count: width, into: &vector)
                YCbCr.convertOneByOne(luma, cb, cr, range: 0..<width, into: &reference)
                compared += width
                if vector != reference { differing += 1 }
            }
        }
        return (compared, differing)
    }
}

/// The arm64 command: 0 success, 1 failure, 2 usage, like `reception-image`.
enum ArmLabCommand {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["vector-check"] { return ArmLabVectorCheck.run() }
        guard let command = ImageArguments.parse(arguments) else { return fail(ImageArguments.usage, 2) }
        do throws(CodecError) {
            switch command {
            case let .encode(options, input, output):
                guard let bytes = ArmLabFiles.read(input) else { return fail("reception-image: cannot read \(input)", 1) }
                let image = try PortablePixmap.decode(bytes)
                // Room for width × height bytes up front, as `reception-image encode` reserves it.
                var sink = ByteArraySink(reservingCapacity: image.width * image.height)
                try JPEGEncoder(options: options).encode(image, into: &sink)
                return store(sink.bytes, output)
            case let .decode(eighths, input, output):
                guard let bytes = ArmLabFiles.read(input) else { return fail("reception-image: cannot read \(input)", 1) }
                let image: DecodedImage
                if let eighths { image = try JPEGDecoder.decode(bytes, eighths: eighths) } else {
                    image = try JPEGDecoder.decode(bytes)
                }
                print("width=\(image.pixels.width) height=\(image.pixels.height) orientation=\(image.orientation.rawValue)")
                // The header, then the decoder's own rows (a decoded JPEG is tight), as `reception-image` writes it.
                guard PortablePixmap.isTight(image.pixels) else { return store(PortablePixmap.encode(image.pixels), output) }
                let count = image.pixels.height * image.pixels.bytesPerRow
                return ArmLabFiles.write([PortablePixmap.header(image.pixels), image.pixels.bytes], counts: [-1, count], to: output)
                    ? 0 : fail("reception-image: cannot write \(output)", 1)
            case let .prepare(input, output):
                guard let bytes = ArmLabFiles.read(input) else { return fail("reception-image: cannot read \(input)", 1) }
                let jpeg = try prepareFirstRound(bytes)
                print("quality=0.85 edge=2048 width=\(jpeg.width) height=\(jpeg.height) bytes=\(jpeg.bytes.count)")
                return store(jpeg.bytes, output)
            }
        } catch {
            return fail("reception-image: \(error == .imageTooLarge ? "image_too_large" : "invalid_image")", 1)
        }
    }

    /// Spec 7.9's first round for a JPEG, as `PhotoPreparer` does it: decoded at the smallest DCT scale still
    /// covering 2,048 px, area-resampled from the frame's rows to the file's size fitted within 2,048 px, converted
    /// from its embedded ICC profile to sRGB, turned by its EXIF orientation, encoded at 85 with preparation's options.
    static func prepareFirstRound(_ bytes: [UInt8]) throws(CodecError) -> (bytes: [UInt8], width: Int, height: Int) {
        guard let declared = JPEGDecoder.declaredSize(bytes) else { throw .invalidImage }
        let (rows, orientation) = try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            try JPEGDecoder.decodeRows(file, minimumLongestEdge: 2048)
        }
        let (width, height) = AreaResampler.fit(
            width: max(declared.width, 1), height: max(declared.height, 1), maximumEdge: 2048)
        var resized = AreaResampler.resize(rendering: rows, width: min(width, rows.width), height: min(height, rows.height))
        SRGBConversion(profile: rows.iccProfile, format: resized.format).apply(to: &resized)
        let oriented = PixelOperations.apply(orientation, to: resized)
        let jpeg = try JPEGEncoder(options: JPEGEncoder.preparationOptions).encodeJPEG(oriented, quality: 85)
        return (jpeg, oriented.width, oriented.height)
    }

    static func store(_ bytes: [UInt8], _ path: String) -> Int32 {
        ArmLabFiles.write(bytes, to: path) ? 0 : fail("reception-image: cannot write \(path)", 1)
    }

    static func fail(_ message: String, _ status: Int32) -> Int32 {
        ArmLabFiles.complain(message)
        return status
    }
}

@_cdecl("main")
func main(_ count: Int32, _ values: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32 {
    var arguments: [String] = []
    for index in 1..<max(Int(count), 1) {
        guard let value = values[index] else { continue }
        arguments.append(String(cString: value))
    }
    return ArmLabCommand.run(arguments)
}
