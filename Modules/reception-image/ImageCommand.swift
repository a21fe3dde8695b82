import Foundation
import ImagePipeline
import ReceptionCore

/// The `encode` command: parses arguments, reads the input, times the encode alone, writes the output.
enum ImageCommand {
    /// Runs the command line and returns the process exit status (0 success, 1 failure, 2 usage).
    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "decode": return PhotoCommands.decode(Array(arguments.dropFirst()))
        case "prepare": return PhotoCommands.prepare(Array(arguments.dropFirst()))
        case "encode": break
        default: return fail(usage, status: 2)
        }
        var options = JPEGEncoder.Options()
        var quality: Int?
        var paths: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "--quality":
                quality = value.flatMap(Int.init)
                index += 1
            case "--subsampling":
                switch value {
                case "420": options.chroma = .halved
                case "444": options.chroma = .full
                default: return fail(usage, status: 2)
                }
                index += 1
            case "--restart":
                guard let interval = value.flatMap(Int.init) else { return fail(usage, status: 2) }
                options.restartInterval = interval
                index += 1
            case "--progressive": options.progressive = true
            case "--trellis": options.trellis = true
            case "--optimize": options.optimizeHuffman = true
            case "--no-optimize": options.optimizeHuffman = false
            default: paths.append(argument)
            }
            index += 1
        }
        guard let quality, paths.count == 2 else { return fail(usage, status: 2) }
        options.quality = quality
        do {
            guard let input = FileManager.default.contents(atPath: paths[0]) else {
                return fail("reception-image: cannot read \(paths[0])", status: 1)
            }
            let image = try PhotoCommands.readImage([UInt8](input))
            var sink = ByteArraySink()
            let clock = ContinuousClock()
            let start = clock.now
            try JPEGEncoder(options: options).encode(image, into: &sink)
            let elapsed = clock.now - start
            guard FileManager.default.createFile(atPath: paths[1], contents: Data(sink.bytes)) else {
                return fail("reception-image: cannot write \(paths[1])", status: 1)
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            print("encode_seconds=\(seconds)")
            return 0
        } catch {
            return fail("reception-image: \(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return status
    }
}
