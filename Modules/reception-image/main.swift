// reception-image: shows host developers what the image pipeline does to their photos, and gives benchmark
// harnesses an in-process encode time.
//
//   reception-image encode --quality Q [--subsampling 420|444] [--optimize|--no-optimize] [--restart N] IN OUT
//
// IN is a binary PPM (P6) or PGM (P5); PNG arrives with the decoder. Prints `encode_seconds=X` on stdout.
import Foundation
import ImagePipeline
import ReceptionCore

let usage = """
    usage: reception-image encode --quality Q [--subsampling 420|444] [--optimize|--no-optimize] [--restart N] IN OUT
    """

exit(ImageCommand.run(Array(CommandLine.arguments.dropFirst())))
