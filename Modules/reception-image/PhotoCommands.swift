import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// The `decode` and `prepare` commands: the decoders and spec 7.9 preparation on a file, timed in process.
enum PhotoCommands {
    /// PNG, JPEG, HEIC, GIF, WebP or TIFF through `ImageDecoder` (alpha flattened onto white, orientation not
    /// applied; a HEIC comes out upright; an animation's first frame), else PPM/PGM.
    static func readImage(_ bytes: consuming [UInt8]) throws(CodecError) -> Bitmap {
        if bytes.starts(with: [0x50]) { return try PortablePixmap.decode(bytes) }
        return PixelOperations.flattenOntoWhite(try ImageDecoder.decode(bytes).pixels)
    }

    /// `decode [--scale N/8] IN OUT.ppm`: full-size decode (or a JPEG at `eighths`/8 in the DCT domain), written as
    /// PPM (PGM for grey), with `decode_seconds=X`.
    /// The file is read into one array and the pixels are written from the decoder's own buffer, so the process's
    /// peak memory is the input plus the decoded image (what `/usr/bin/time -v` measures against issue 4).
    static func decode(eighths: Int?, _ input: String, _ output: String) -> Int32 {
        guard let bytes = readFile(input) else {
            return ImageCommand.fail("reception-image: cannot read \(input)", status: 1)
        }
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let image: DecodedImage
            if let eighths { image = try JPEGDecoder.decode(bytes, eighths: eighths) } else {
                image = try ImageDecoder.decode(bytes)
            }
            let elapsed = clock.now - start
            let flat = PixelOperations.flattenOntoWhite(image.pixels)
            guard writePortablePixmap(flat, to: output) else {
                return ImageCommand.fail("reception-image: cannot write \(output)", status: 1)
            }
            print("width=\(flat.width) height=\(flat.height) orientation=\(image.orientation.rawValue)")
            print("decode_seconds=\(seconds(elapsed))")
            return 0
        } catch {
            return ImageCommand.fail("reception-image: \(ReceptionError(error).code)", status: 1)
        }
    }

    /// The file's bytes; the `Data` it was read into is released on return.
    static func readFile(_ path: String) -> [UInt8]? {
        // Straight into the array: through `Data` a 12 MP pixmap was read into one buffer and copied into another.
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        guard fseek(file, 0, SEEK_END) == 0, case let size = ftell(file), size >= 0, fseek(file, 0, SEEK_SET) == 0 else {
            // Not seekable (a pipe): let Foundation read it to the end.
            return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        }
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = size == 0 ? 0 : fread(buffer.baseAddress, 1, size, file)
            complete = count == size
        }
        return complete ? bytes : nil
    }

    /// Writes `bytes` as the whole file at `path` (no `Data` copy of them first).
    static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        return fclose(file) == 0 && written == bytes.count
    }

    /// Writes P6/P5 straight from a tightly packed grey or RGB buffer (no 36 MB copy for a 12 MP photo); any
    /// other layout goes through `PortablePixmap.encode`.
    static func writePortablePixmap(_ image: Bitmap, to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        guard PortablePixmap.isTight(image) else {
            let encoded = PortablePixmap.encode(image)
            return fwrite(encoded, 1, encoded.count, file) == encoded.count
        }
        let header = PortablePixmap.header(image)
        let count = image.height * image.bytesPerRow
        return fwrite(header, 1, header.count, file) == header.count
            && image.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, count, file) } == count
    }

    /// `prepare IN OUT.jpg`: the whole spec 7.9 preparation, with what it chose and `prepare_seconds=X`.
    static func prepare(_ input: String, _ output: String) -> Int32 {
        guard let bytes = readFile(input) else {
            return ImageCommand.fail("reception-image: cannot read \(input)", status: 1)
        }
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = try PhotoPreparer().prepareReporting(bytes)
            let elapsed = clock.now - start
            guard FileManager.default.createFile(atPath: output, contents: outcome.photo.jpeg) else {
                return ImageCommand.fail("reception-image: cannot write \(output)", status: 1)
            }
            let quality = String(format: "%.2f", Double(outcome.quality) / 100)
            print("quality=\(quality) edge=\(outcome.maximumEdge) width=\(outcome.photo.width) height=\(outcome.photo.height)")
            print("bytes=\(outcome.photo.jpeg.count) checksum=\(outcome.photo.checksum)")
            print("prepare_seconds=\(seconds(elapsed))")
            return 0
        } catch {
            return ImageCommand.fail("reception-image: \(error.code)", status: 1)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
