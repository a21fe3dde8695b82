#if canImport(CWebP)
    import CWebP
    import JPEGCodec

    /// WebP files through libwebp (Debian's `libwebp-dev`; the platforms without ImageIO): lossy (VP8) and lossless
    /// (VP8L), with or without alpha (decoded straight, flattened onto white by preparation); of an animation, the
    /// first frame, placed on the canvas at its offset. The `ICCP` chunk's profile is reported, and of the `EXIF`
    /// chunk only the orientation (tag 0x0112, for preparation to apply, as ImageIO and browsers do); the rest of
    /// `EXIF` and the `XMP ` chunk are never read.
    ///
    /// The container is read by the demuxer (`WebPDemux`, which refuses a file whose chunks do not add up), the canvas
    /// and the frame's bitstream sizes (`WebPGetFeatures`) pass `DecodeLimits` (and a canvas larger than the frame
    /// `CanvasLimit`) before the output is allocated, and libwebp decodes straight into it. Every failure of libwebp
    /// is `invalid_image`.
    package enum WebPDecoder: ImageFormatDecoding {
        /// `RIFF`, a size, `WEBP`.
        package static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
            file.count >= 12 && file.starts(with: Array("RIFF".utf8)) && Array(file[8..<12]) == Array("WEBP".utf8)
        }

        /// The canvas size libwebp reads from the first chunk's header (`WebPGetInfo`).
        package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
            var width: Int32 = 0, height: Int32 = 0
            let known = bytes.withUnsafeBufferPointer { file in
                matches(file) && WebPGetInfo(file.baseAddress, file.count, &width, &height) != 0
            }
            return known ? (Int(width), Int(height)) : nil
        }

        /// Decodes the first frame at full size (`minimumLongestEdge` is not used).
        package static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
            -> DecodedImage
        {
            guard matches(file), let base = file.baseAddress else { throw .invalidImage }
            var data = WebPData(bytes: base, size: file.count)
            guard let demuxer = WebPDemux(&data) else { throw .invalidImage }
            defer { WebPDemuxDelete(demuxer) }
            let canvas = (
                width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            )
            try DecodeLimits.check(width: canvas.width, height: canvas.height)
            var frame = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else { throw .invalidImage }
            defer { WebPDemuxReleaseIterator(&frame) }
            try CanvasLimit.check(
                canvas: canvas, frame: (Int(frame.width), Int(frame.height)), fileSize: file.count)
            let pixels = try Self.pixels(of: frame, canvas: canvas)
            return DecodedImage(
                pixels: pixels, orientation: Self.orientation(demuxer), iccProfile: Self.chunk("ICCP", of: demuxer))
        }

        /// The frame decoded onto the canvas: RGB when it is opaque and covers the canvas, RGBA otherwise (the part it
        /// leaves uncovered transparent).
        private static func pixels(of frame: WebPIterator, canvas: (width: Int, height: Int)) throws(CodecError)
            -> Bitmap
        {
            let width = Int(frame.width), height = Int(frame.height)
            let left = Int(frame.x_offset), top = Int(frame.y_offset)
            try DecodeLimits.check(width: width, height: height)
            guard left + width <= canvas.width, top + height <= canvas.height,
                  let bitstream = frame.fragment.bytes
            else { throw .invalidImage }
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(bitstream, frame.fragment.size, &features) == VP8_STATUS_OK,
                  Int(features.width) == width, Int(features.height) == height
            else { throw .invalidImage }
            let covers = width == canvas.width && height == canvas.height
            let channels = covers && features.has_alpha == 0 ? 3 : 4
            var decoded = [UInt8](repeating: 0, count: width * height * channels)
            let written = decoded.withUnsafeMutableBufferPointer { out in
                channels == 4
                    ? WebPDecodeRGBAInto(bitstream, frame.fragment.size, out.baseAddress, out.count, Int32(width * 4))
                    : WebPDecodeRGBInto(bitstream, frame.fragment.size, out.baseAddress, out.count, Int32(width * 3))
            }
            guard written != nil else { throw .invalidImage }
            let format: BitmapFormat = channels == 4 ? .rgba8 : .rgb8
            guard !covers else { return Bitmap(width: width, height: height, format: format, bytes: decoded) }
            var placed = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
            let row = width * 4
            for y in 0..<height {
                let target = ((top + y) * canvas.width + left) * 4
                placed.replaceSubrange(target..<(target + row), with: decoded[(y * row)..<((y + 1) * row)])
            }
            return Bitmap(width: canvas.width, height: canvas.height, format: format, bytes: placed)
        }

        /// The first chunk of `fourCC`'s bytes, nil when the file has none.
        private static func chunk(_ fourCC: String, of demuxer: OpaquePointer) -> [UInt8]? {
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, fourCC, 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let bytes = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
            return Array(UnsafeBufferPointer(start: bytes, count: chunk.chunk.size))
        }

        /// The `EXIF` chunk's orientation: a TIFF structure, after an `Exif\0\0` prefix in some writers' files.
        private static func orientation(_ demuxer: OpaquePointer) -> Orientation {
            guard var exif = chunk("EXIF", of: demuxer) else { return .up }
            if exif.starts(with: Array("Exif\0\0".utf8)) { exif.removeFirst(6) }
            return exif.withUnsafeBufferPointer { ExifOrientation.read(tiff: $0) }
        }
    }
#endif
