// reception-image: shows host developers what the image pipeline does to their photos, and gives benchmark
// harnesses an in-process encode time.
//
//   reception-image encode --quality Q [--subsampling 420|444] [--optimize|--no-optimize] [--progressive] [--trellis] [--restart N] IN OUT
//   reception-image decode [--scale 1/8|1/4|3/8|1/2|1/1] IN OUT.ppm   (prints decode_seconds=X)
//   reception-image prepare IN OUT.jpg       (prints quality, edge, width, height, bytes, prepare_seconds=X)
//
// IN is a PNG, a JPEG, or a binary PPM (P6) / PGM (P5). `encode` prints `encode_seconds=X` on stdout.
import Foundation

exit(ImageCommand.run(Array(CommandLine.arguments.dropFirst())))
