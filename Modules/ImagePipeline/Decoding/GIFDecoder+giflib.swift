#if canImport(CGif)
    import CGif
    import JPEGCodec

    /// GIF files through giflib (Debian's `libgif-dev`; the platforms without ImageIO): the first frame only, as
    /// seed 001 drops animations, placed on the logical screen at its offset. A frame's transparent colour (from the
    /// graphics control extension before it) and any part of the screen the frame leaves uncovered become alpha 0,
    /// which preparation flattens onto white; a transparent pixel keeps its palette colour, as Pillow decodes it.
    /// An ICC profile in an `ICCRGBG1` application extension before the frame is reported; comments, XMP and other
    /// extensions are read past and dropped.
    ///
    /// Records are read one at a time (`DGifGetRecordType`), never the whole file (`DGifSlurp`), so the screen's and
    /// the frame's sizes pass `DecodeLimits` before anything is allocated for them, and the frame's rows are kept only
    /// as giflib decodes them: a header that lies about its size runs out of data before memory grows. A screen
    /// larger than the frame must be backed by the file's size (`CanvasLimit`). Every failure of giflib is
    /// `invalid_image`.
    package enum GIFDecoder: ImageFormatDecoding {
        /// `GIF87a` or `GIF89a`.
        package static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
            file.starts(with: Array("GIF87a".utf8)) || file.starts(with: Array("GIF89a".utf8))
        }

        /// The logical screen's size (bytes 6–9, little-endian), which the decoded picture has.
        package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
            guard bytes.count >= 10, bytes.withUnsafeBufferPointer({ matches($0) }) else { return nil }
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        }

        /// Decodes the first frame at full size (`minimumLongestEdge` is not used).
        package static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
            -> DecodedImage
        {
            guard matches(file) else { throw .invalidImage }
            return try MemoryInput.reading(file) { (input) throws(CodecError) in
                var error: Int32 = 0
                guard let gif = DGifOpen(input, readGIFInput, &error) else { throw .invalidImage }
                defer { DGifCloseFile(gif, &error) }
                return try firstFrame(gif, fileSize: file.count)
            }
        }

        /// The first frame on the logical screen, with what the extensions before it said.
        private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>, fileSize: Int) throws(CodecError)
            -> DecodedImage
        {
            let screen = (width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
            try DecodeLimits.check(width: screen.width, height: screen.height)
            var extensions = GIFExtensions()
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else { throw .invalidImage }
                if record == EXTENSION_RECORD_TYPE {
                    try extensions.read(gif)
                } else if record == IMAGE_DESC_RECORD_TYPE {
                    let frame = try GIFFrame.read(gif)
                    try CanvasLimit.check(
                        canvas: screen, frame: (frame.width, frame.height), fileSize: fileSize)
                    let pixels = try frame.placed(
                        onScreen: screen, transparentIndex: extensions.transparentIndex)
                    return DecodedImage(pixels: pixels, iccProfile: extensions.iccProfile)
                } else {
                    // The trailer (or anything unknown) before the first image: there is no picture.
                    throw .invalidImage
                }
            }
        }
    }

    /// giflib's read callback. A plain function, not a closure: C calls it, and it may capture nothing.
    private func readGIFInput(
        _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ count: Int32
    ) -> Int32 {
        guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
        return Int32(user.assumingMemoryBound(to: MemoryInput.self).pointee.read(into: buffer, count: Int(count)))
    }

    /// What the extensions before the first frame say about it: its transparent colour index (graphics control
    /// extension) and an embedded ICC profile (application extension `ICCRGBG1`, identifier and code `ICCRGBG1012`).
    struct GIFExtensions {
        private(set) var transparentIndex: Int?
        private(set) var iccProfile: [UInt8]?
        private static let iccIdentifier = Array("ICCRGBG1012".utf8)

        /// Reads one extension record, every sub-block of it.
        mutating func read(_ gif: UnsafeMutablePointer<GifFileType>) throws(CodecError) {
            var code: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw .invalidImage }
            var first = true, profile: [UInt8]?
            while let current = block {
                // giflib hands each sub-block with its length byte first.
                let data = UnsafeBufferPointer(start: current + 1, count: Int(current[0]))
                if first && code == GRAPHICS_EXT_FUNC_CODE {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(data.count, data.baseAddress, &control) == GIF_OK {
                        transparentIndex = control.TransparentColor == NO_TRANSPARENT_COLOR
                            ? nil : Int(control.TransparentColor)
                    }
                } else if code == APPLICATION_EXT_FUNC_CODE {
                    if first {
                        if iccProfile == nil && data.elementsEqual(Self.iccIdentifier) { profile = [] }
                    } else {
                        profile?.append(contentsOf: data)
                    }
                }
                first = false
                guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw .invalidImage }
            }
            if let profile, !profile.isEmpty { iccProfile = profile }
        }
    }

    /// One frame's palette indices, as decoded, with where the frame sits and its colour table.
    struct GIFFrame {
        let left: Int, top: Int, width: Int, height: Int
        /// The frame's rows in file order (interlaced frames store rows 0, 8, 16, … first).
        let indices: [UInt8]
        let interlaced: Bool
        /// The frame's colour table, else the global one, as RGB triples.
        let palette: [UInt8]

        /// Reads the image descriptor and every row of the frame it starts.
        static func read(_ gif: UnsafeMutablePointer<GifFileType>) throws(CodecError) -> GIFFrame {
            guard DGifGetImageDesc(gif) == GIF_OK else { throw .invalidImage }
            let descriptor = gif.pointee.Image
            let width = Int(descriptor.Width), height = Int(descriptor.Height)
            try DecodeLimits.check(width: width, height: height)
            guard let map = descriptor.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
                throw .invalidImage
            }
            var palette: [UInt8] = []
            for index in 0..<max(0, min(256, Int(map.pointee.ColorCount))) {
                palette += [colours[index].Red, colours[index].Green, colours[index].Blue]
            }
            // Rows are appended as giflib decodes them, so memory follows the data the file really holds.
            var indices: [UInt8] = []
            indices.reserveCapacity(min(width * height, 1 << 20))
            var line = [UInt8](repeating: 0, count: width)
            for _ in 0..<height {
                let status = line.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(width)) }
                guard status == GIF_OK else { throw .invalidImage }
                indices.append(contentsOf: line)
            }
            return GIFFrame(
                left: Int(descriptor.Left), top: Int(descriptor.Top), width: width, height: height,
                indices: indices, interlaced: descriptor.Interlace, palette: palette)
        }

        /// The image row of each row in file order: the four interlace passes, or the identity.
        var rowOrder: [Int] {
            guard interlaced else { return Array(0..<height) }
            return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
                Array(stride(from: start, to: height, by: step))
            }
        }

        /// The frame on a screen of `screen`'s size: RGB when it covers the screen and has no transparent colour,
        /// RGBA otherwise (the uncovered part transparent). Parts of the frame beyond the screen are cut off; an
        /// index past the palette is black.
        func placed(onScreen screen: (width: Int, height: Int), transparentIndex: Int?) throws(CodecError) -> Bitmap {
            let covers = left == 0 && top == 0 && width >= screen.width && height >= screen.height
            let channels = covers && transparentIndex == nil ? 3 : 4
            var pixels = [UInt8](repeating: 0, count: screen.width * screen.height * channels)
            let colours = palette.count / 3
            for (fileRow, y) in rowOrder.enumerated() where top + y < screen.height {
                let source = fileRow * width, target = (top + y) * screen.width
                for x in 0..<min(width, max(0, screen.width - left)) {
                    let index = Int(indices[source + x])
                    let p = (target + left + x) * channels
                    if index < colours {
                        pixels[p] = palette[index * 3]
                        pixels[p + 1] = palette[index * 3 + 1]
                        pixels[p + 2] = palette[index * 3 + 2]
                    }
                    if channels == 4 { pixels[p + 3] = index == transparentIndex ? 0 : 255 }
                }
            }
            return Bitmap(
                width: screen.width, height: screen.height, format: channels == 4 ? .rgba8 : .rgb8, bytes: pixels)
        }
    }
#endif
