// The command lines of `reception-image` and of its arm64 build (`make arm-lab`), parsed in one place so the two
// take the same arguments and flags. Foundation-free: scripts/arm-lab compiles this file in Embedded Swift into one
// module with the codec (built with -D ARM_LAB, where there is no JPEGCodec module to import).
#if !ARM_LAB
import JPEGCodec
#endif

/// One parsed command line.
enum ImageArguments: Equatable {
    /// `encode --quality Q [--subsampling 420|444] [--optimize|--no-optimize] [--progressive] [--trellis]
    /// [--restart N] IN OUT`
    case encode(JPEGEncoder.Options, input: String, output: String)
    /// `decode [--scale 1/8|1/4|3/8|1/2|1/1] IN OUT.ppm`: `eighths` is nil for the full size.
    case decode(eighths: Int?, input: String, output: String)
    /// `prepare IN OUT.jpg`
    case prepare(input: String, output: String)

    static let usage = """
        usage: reception-image encode --quality Q [--subsampling 420|444] [--optimize|--no-optimize] [--progressive] [--trellis] [--restart N] IN OUT
               reception-image decode [--scale 1/8|1/4|3/8|1/2|1/1] IN OUT.ppm
               reception-image prepare IN OUT.jpg
        """

    /// The command `arguments` (without the program name) spell, or nil when they are not a valid command line.
    static func parse(_ arguments: [String]) -> ImageArguments? {
        guard let command = arguments.first else { return nil }
        var rest = Array(arguments.dropFirst())
        switch command {
        case "encode": return parseEncode(rest)
        case "decode":
            var eighths: Int?
            if rest.first == "--scale" {
                guard rest.count >= 2, let scale = scales.first(where: { $0.text == rest[1] }) else { return nil }
                eighths = scale.eighths
                rest.removeFirst(2)
            }
            guard rest.count == 2 else { return nil }
            return .decode(eighths: eighths, input: rest[0], output: rest[1])
        case "prepare":
            guard rest.count == 2 else { return nil }
            return .prepare(input: rest[0], output: rest[1])
        default: return nil
        }
    }

    /// The decoder's scales as `--scale` spells them.
    static let scales: [(text: String, eighths: Int)] = [("1/8", 1), ("1/4", 2), ("3/8", 3), ("1/2", 4), ("1/1", 8)]

    private static func parseEncode(_ arguments: [String]) -> ImageArguments? {
        var options = JPEGEncoder.Options()
        var quality: Int?
        var paths: [String] = []
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch arguments[index] {
            case "--quality":
                guard let number = value.flatMap(decimal) else { return nil }
                quality = number
                index += 1
            case "--subsampling":
                switch value {
                case "420": options.chroma = .halved
                case "444": options.chroma = .full
                default: return nil
                }
                index += 1
            case "--restart":
                guard let interval = value.flatMap(decimal) else { return nil }
                options.restartInterval = interval
                index += 1
            case "--progressive": options.progressive = true
            case "--trellis": options.trellis = true
            case "--optimize": options.optimizeHuffman = true
            case "--no-optimize": options.optimizeHuffman = false
            default: paths.append(arguments[index])
            }
            index += 1
        }
        guard let quality, paths.count == 2 else { return nil }
        options.quality = quality
        return .encode(options, input: paths[0], output: paths[1])
    }

    /// A non-negative decimal of at most nine digits (so it cannot overflow), else nil. The range the codec accepts
    /// is the encoder's to check: an out-of-range quality is `invalid_image`, not a usage error.
    static func decimal(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard (1...9).contains(digits.count) else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
