#if canImport(CHeif)
    import CHeif
    import JPEGCodec
    import ReceptionCore

    /// HEIC and HEIF photos through libheif (Debian's `libheif-dev`; the platforms without ImageIO). The primary
    /// image is decoded with the file's own transformations applied (`irot`, `imir`, `clap`: an iPhone photo's
    /// orientation), so the result is already upright and its EXIF orientation, which describes the same turn, is
    /// not applied again. 10-bit images are reduced to 8 bits by libheif; alpha stays straight for preparation to
    /// flatten onto white. Every failure of libheif is `invalid_image`, a size over the decoders' limits
    /// `image_too_large`; nothing of the file can make this code trap.
    ///
    /// The colour profile of the `colr` box is reported when it is an ICC profile (`prof` or `rICC`); an `nclx`
    /// box (colour primaries and transfer as code points, no profile) is reported as nil, i.e. sRGB.
    enum HEIFDecoder: ImageFormatDecoding {
        /// A HEIF still image's `ftyp` brand (`HEIFFile`).
        static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool { HEIFFile.matches(file) }

        /// libheif decodes at full size; `minimumLongestEdge` is not used.
        static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
            -> DecodedImage
        {
            try decode(file)
        }

        static func decode(_ file: UnsafeBufferPointer<UInt8>) throws(CodecError) -> DecodedImage {
            guard let base = file.baseAddress, let context = heif_context_alloc() else { throw .invalidImage }
            defer { heif_context_free(context) }
            guard heif_context_read_from_memory_without_copy(context, base, file.count, nil).code == heif_error_Ok,
                  heif_context_get_number_of_top_level_images(context) >= 1
            else { throw .invalidImage }
            var handle: OpaquePointer?
            guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
                throw .invalidImage
            }
            defer { heif_image_handle_release(handle) }
            try DecodeLimits.check(
                width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            let premultiplied = hasAlpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
            guard let options = heif_decoding_options_alloc() else { throw .invalidImage }
            defer { heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = 0
            options.pointee.convert_hdr_to_8bit = 1
            var image: OpaquePointer?
            let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
            let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
            guard let image else { throw Self.error(decoded) }
            defer { heif_image_release(image) }
            guard decoded.code == heif_error_Ok else { throw Self.error(decoded) }
            var result = try Self.pixels(of: image, channels: hasAlpha ? 4 : 3, premultiplied: premultiplied)
            result.iccProfile = Self.iccProfile(of: handle)
            return result
        }

        /// The raw ICC profile of the primary image's `colr` box (`prof` or `rICC`); nil for none or `nclx`.
        private static func iccProfile(of handle: OpaquePointer) -> [UInt8]? {
            let type = heif_image_handle_get_color_profile_type(handle)
            guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            // An ICC profile's header alone is 128 bytes; the box cannot hold more than the file.
            guard size >= 128 else { return nil }
            var profile = [UInt8](repeating: 0, count: size)
            let read = profile.withUnsafeMutableBytes {
                heif_image_handle_get_raw_color_profile(handle, $0.baseAddress)
            }
            return read.code == heif_error_Ok ? profile : nil
        }

        /// The interleaved 8-bit plane copied into a `Bitmap`, row by row (libheif pads rows to its stride).
        private static func pixels(of image: OpaquePointer, channels: Int, premultiplied: Bool) throws(CodecError)
            -> DecodedImage
        {
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            try DecodeLimits.check(width: width, height: height)
            var stride: Int32 = 0
            guard heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
                  let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                  Int(stride) >= width * channels
            else { throw .invalidImage }
            let rowBytes = width * channels
            var bytes: [UInt8] = []
            bytes.reserveCapacity(rowBytes * height)
            for y in 0..<height {
                bytes.append(contentsOf: UnsafeBufferPointer(start: plane + y * Int(stride), count: rowBytes))
            }
            if premultiplied { PixelOperations.unpremultiply(&bytes) }
            return DecodedImage(
                pixels: Bitmap(width: width, height: height, format: channels == 4 ? .rgba8 : .rgb8, bytes: bytes))
        }

        /// libheif's own size limit is `image_too_large`, as our decoders' is; any other failure `invalid_image`.
        private static func error(_ error: heif_error) -> CodecError {
            error.subcode == heif_suberror_Security_limit_exceeded ? CodecError.imageTooLarge : .invalidImage
        }
    }
#endif
