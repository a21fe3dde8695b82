import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore

/// Runs one command line: `ImageArguments` parses it (the same parser as the arm64 build's), then `encode` reads
/// the input, times the encode alone and writes the output; `decode` and `prepare` are `PhotoCommands`'.
enum ImageCommand {
    /// Runs the command line and returns the process exit status (0 success, 1 failure, 2 usage).
    static func run(_ arguments: [String]) -> Int32 {
        switch ImageArguments.parse(arguments) {
        case nil: return fail(ImageArguments.usage, status: 2)
        case let .decode(eighths, input, output): return PhotoCommands.decode(eighths: eighths, input, output)
        case let .prepare(input, output): return PhotoCommands.prepare(input, output)
        case let .encode(options, input, output): return encode(options, input, output)
        }
    }

    private static func encode(_ options: JPEGEncoder.Options, _ input: String, _ output: String) -> Int32 {
        do {
            guard let bytes = PhotoCommands.readFile(input) else {
                return fail("reception-image: cannot read \(input)", status: 1)
            }
            let image = try PhotoCommands.readImage(bytes)
            var sink = ByteArraySink(reservingCapacity: image.width * image.height)
            let clock = ContinuousClock()
            let start = clock.now
            try JPEGEncoder(options: options).encode(image, into: &sink)
            let elapsed = clock.now - start
            guard PhotoCommands.writeFile(sink.bytes, to: output) else {
                return fail("reception-image: cannot write \(output)", status: 1)
            }
            print("encode_seconds=\(PhotoCommands.seconds(elapsed))")
            return 0
        } catch {
            return fail("reception-image: \(ReceptionError(error).code)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return status
    }
}
