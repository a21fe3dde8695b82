#if canImport(CTIFF)
    import CTIFF
    import JPEGCodec

    /// TIFF files through libtiff (Debian's `libtiff-dev`; the platforms without ImageIO): the first directory, in
    /// any layout libtiff's RGBA interface reads (8-bit RGB, grey, palette, RGBA with associated or unassociated
    /// alpha; uncompressed, LZW, Deflate, PackBits and libtiff's other codecs; strips or tiles). Rows come out as
    /// stored and the Orientation tag (274, numbered as EXIF's) is reported for preparation to apply, as a JPEG's is.
    /// The ICC profile (tag 34675) is reported; the EXIF and GPS directories, XMP (700) and IPTC (33723) are never
    /// read.
    ///
    /// libtiff reads from the buffer through callbacks (`TIFFClientOpenExt`, nothing touches a file), its errors and
    /// warnings go to a handler that drops them (no stderr noise), and its single allocations are capped. Width and
    /// length pass `DecodeLimits`, and the strips' or tiles' stored bytes must be able to hold the pixels they claim
    /// (a ratio per compression), before anything is decoded; the picture is then decoded in bands of whole strips or
    /// tile rows and kept only as each band decodes. Every failure of libtiff is `invalid_image`.
    package enum TIFFDecoder: ImageFormatDecoding {
        /// `II*\0` or `MM\0*` (classic TIFF), `II+\0` or `MM\0+` (BigTIFF).
        package static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
            TIFFHeader.matches(file)
        }

        /// Width and length from the first directory of a classic TIFF (nil for BigTIFF).
        package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
            TIFFHeader.declaredSize(bytes)
        }

        /// Decodes the first directory at full size (`minimumLongestEdge` is not used).
        package static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
            -> DecodedImage
        {
            guard matches(file) else { throw .invalidImage }
            guard let options = TIFFOpenOptionsAlloc() else { throw .invalidImage }
            defer { TIFFOpenOptionsFree(options) }
            // The largest strip buffer libtiff may need for the largest picture the limits allow (64 MP, 4 × 16 bits).
            TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(DecodeLimits.maximumPixels * 8))
            TIFFOpenOptionsSetErrorHandlerExtR(options, dropTIFFMessage, nil)
            TIFFOpenOptionsSetWarningHandlerExtR(options, dropTIFFMessage, nil)
            return try MemoryInput.reading(file) { (input) throws(CodecError) in
                // "r": read; "m": no memory mapping (libtiff copies what it reads through `readTIFFInput`).
                guard let tiff = TIFFClientOpenExt(
                    "photo", "rm", input, readTIFFInput, writeTIFFInput, seekTIFFInput, closeTIFFInput, sizeTIFFInput,
                    mapTIFFInput, unmapTIFFInput, options)
                else { throw .invalidImage }
                defer { TIFFClose(tiff) }
                return try TIFFPicture(tiff, fileSize: file.count).decode()
            }
        }
    }

    /// One open TIFF's first directory, checked and decoded.
    private struct TIFFPicture {
        let tiff: OpaquePointer
        let width: Int
        let height: Int

        /// Reads width and length and checks them against `DecodeLimits`, then the stored data against the claim.
        init(_ tiff: OpaquePointer, fileSize: Int) throws(CodecError) {
            var width: UInt32 = 0, height: UInt32 = 0
            guard reception_tiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) != 0,
                  reception_tiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) != 0
            else { throw .invalidImage }
            try DecodeLimits.check(width: Int(width), height: Int(height))
            self.tiff = tiff
            self.width = Int(width)
            self.height = Int(height)
            try checkStoredData(fileSize: fileSize)
        }

        /// Refuses a file whose strips or tiles could not hold the pixels they claim even at the compression's
        /// largest expansion (PackBits 64:1, Deflate 1,032:1, 4,096:1 for LZW and the rest), so a lying count or size
        /// cannot make libtiff allocate for data that is not there.
        private func checkStoredData(fileSize: Int) throws(CodecError) {
            let tiled = TIFFIsTiled(tiff) != 0
            let pieces = Int(tiled ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff))
            var counts: UnsafePointer<UInt64>?
            let tag = UInt32(tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS)
            guard pieces >= 1, reception_tiff_get_counts(tiff, tag, &counts) != 0, let counts else {
                throw .invalidImage
            }
            // What the pieces decode to: whole tiles (edge tiles are stored full size), or every row of the picture
            // once per plane (a last strip is shorter than the others).
            var planar: UInt16 = 1, samples: UInt16 = 1
            _ = reception_tiff_get_uint16(tiff, UInt32(TIFFTAG_PLANARCONFIG), &planar)
            _ = reception_tiff_get_uint16(tiff, UInt32(TIFFTAG_SAMPLESPERPIXEL), &samples)
            let planes = Int32(planar) == PLANARCONFIG_SEPARATE ? max(1, Int(samples)) : 1
            let (claimed, overflow) = tiled
                ? Int(clamping: TIFFTileSize64(tiff)).multipliedReportingOverflow(by: pieces)
                : Int(clamping: TIFFVStripSize64(tiff, UInt32(height))).multipliedReportingOverflow(by: planes)
            guard !overflow, claimed > 0 else { throw .invalidImage }
            var stored = 0
            for piece in 0..<pieces { stored = min(fileSize, stored + Int(min(counts[piece], UInt64(fileSize)))) }
            var compression: UInt16 = 1
            _ = reception_tiff_get_uint16(tiff, UInt32(TIFFTAG_COMPRESSION), &compression)
            let ratio: Int
            switch Int32(compression) {
            case COMPRESSION_NONE: ratio = 1
            case COMPRESSION_PACKBITS: ratio = 64
            case COMPRESSION_ADOBE_DEFLATE, COMPRESSION_DEFLATE: ratio = 1032
            default: ratio = 4096
            }
            guard claimed <= stored * ratio + 4096 else { throw .invalidImage }
        }

        /// The pixels through libtiff's RGBA interface, band by band; the Orientation tag reported, not applied.
        func decode() throws(CodecError) -> DecodedImage {
            var message = [CChar](repeating: 0, count: 1024)
            var image = TIFFRGBAImage()
            guard TIFFRGBAImageOK(tiff, &message) != 0, TIFFRGBAImageBegin(&image, tiff, 1, &message) != 0 else {
                throw .invalidImage
            }
            defer { TIFFRGBAImageEnd(&image) }
            let orientation = Orientation(rawValue: Int(image.orientation)) ?? .up
            // Rows as stored, top first: the stored orientation is preparation's to apply.
            image.orientation = UInt16(ORIENTATION_TOPLEFT)
            image.req_orientation = UInt16(ORIENTATION_TOPLEFT)
            let hasAlpha = image.alpha != 0
            let photometric = Int32(image.photometric)
            let grey = !hasAlpha && image.samplesperpixel == 1
                && (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE)
            let format: BitmapFormat = hasAlpha ? .rgba8 : (grey ? .gray8 : .rgb8)
            let band = bandRows()
            var raster = [UInt32](repeating: 0, count: width * band)
            var pixels: [UInt8] = []
            pixels.reserveCapacity(min(width * height * format.bytesPerPixel, 16 << 20))
            var row = 0
            while row < height {
                let rows = min(band, height - row)
                image.row_offset = Int32(row)
                image.col_offset = 0
                let read = raster.withUnsafeMutableBufferPointer {
                    TIFFRGBAImageGet(&image, $0.baseAddress, UInt32(width), UInt32(rows))
                }
                guard read != 0 else { throw .invalidImage }
                Self.unpack(raster[0..<(width * rows)], as: format, appendingTo: &pixels)
                row += rows
            }
            // libtiff premultiplies unassociated alpha too; preparation flattens straight alpha.
            if hasAlpha { PixelOperations.unpremultiply(&pixels) }
            return DecodedImage(
                pixels: Bitmap(width: width, height: height, format: format, bytes: pixels), orientation: orientation,
                iccProfile: iccProfile())
        }

        /// libtiff's packed pixels (A << 24 | B << 16 | G << 8 | R) appended to `pixels` as `format`'s samples.
        private static func unpack(
            _ raster: ArraySlice<UInt32>, as format: BitmapFormat, appendingTo pixels: inout [UInt8]
        ) {
            let channels = format.bytesPerPixel, start = pixels.count
            pixels.append(contentsOf: repeatElement(0, count: raster.count * channels))
            pixels.withUnsafeMutableBufferPointer { out in
                var p = start
                for pixel in raster {
                    for channel in 0..<channels { out[p + channel] = UInt8(truncatingIfNeeded: pixel >> (8 * channel)) }
                    p += channels
                }
            }
        }

        /// Rows per band: whole strips or whole rows of tiles, at least 64 rows, at most the picture.
        private func bandRows() -> Int {
            var unit: UInt32 = 0
            let tag = UInt32(TIFFIsTiled(tiff) != 0 ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP)
            if reception_tiff_get_uint32(tiff, tag, &unit) == 0 { unit = UInt32(height) }
            let rows = min(max(Int(unit), 1), height)
            return min(height, rows * max(1, 64 / rows))
        }

        /// Tag 34675's bytes, nil when the file has none.
        private func iccProfile() -> [UInt8]? {
            var count: UInt32 = 0
            var bytes: UnsafeRawPointer?
            guard reception_tiff_get_bytes(tiff, UInt32(TIFFTAG_ICCPROFILE), &count, &bytes) != 0, let bytes, count > 0
            else { return nil }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
        }
    }

    // libtiff's callbacks: plain functions (C calls them; they may capture nothing), over the `MemoryInput` handle.

    private func tiffInput(_ handle: thandle_t?) -> UnsafeMutablePointer<MemoryInput>? {
        handle?.assumingMemoryBound(to: MemoryInput.self)
    }

    private func readTIFFInput(
        _ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ count: tmsize_t
    ) -> tmsize_t {
        guard let input = tiffInput(handle), let buffer, count > 0 else { return 0 }
        return tmsize_t(input.pointee.read(into: buffer, count: Int(count)))
    }

    private func writeTIFFInput(
        _ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ count: tmsize_t
    ) -> tmsize_t {
        0
    }

    private func seekTIFFInput(_ handle: thandle_t?, _ offset: toff_t, _ whence: Int32) -> toff_t {
        guard let input = tiffInput(handle) else { return toff_t.max }
        let base: Int
        switch whence {
        case 0: base = 0  // SEEK_SET
        case 1: base = input.pointee.offset  // SEEK_CUR
        case 2: base = input.pointee.bytes.count  // SEEK_END
        default: return toff_t.max
        }
        // toff_t is unsigned: a relative seek backwards arrives as its two's complement.
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0 else { return toff_t.max }
        input.pointee.offset = target
        return toff_t(target)
    }

    private func closeTIFFInput(_ handle: thandle_t?) -> Int32 { 0 }

    private func sizeTIFFInput(_ handle: thandle_t?) -> toff_t {
        toff_t(tiffInput(handle)?.pointee.bytes.count ?? 0)
    }

    private func mapTIFFInput(
        _ handle: thandle_t?, _ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        _ size: UnsafeMutablePointer<toff_t>?
    ) -> Int32 {
        0
    }

    private func unmapTIFFInput(_ handle: thandle_t?, _ base: UnsafeMutableRawPointer?, _ size: toff_t) {}

    /// libtiff's error and warning handler: the message is dropped (the failure itself reaches the caller as a
    /// return value), and 1 tells libtiff not to pass it on to its global handlers, which print to stderr.
    private func dropTIFFMessage(
        _ tiff: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
        _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
    ) -> Int32 {
        1
    }
#endif
