import ReceptionCore

/// Shrinks an image by area averaging: every output pixel is the mean of the source area it covers, with
/// fractional weights at the borders. That is the exact low-pass for downscaling, so fine patterns (fabric,
/// screens, text) average out instead of aliasing into moiré. Never enlarges: callers clamp the target.
///
/// Works one output row at a time (a vertical pass into one `Float` row, then the horizontal pass), so its
/// working memory is two rows whatever the image height.
enum AreaResampler {
    /// For each output index, the first source index it covers and the weights of the sources from there.
    struct Footprint {
        var first: [Int] = []
        var weights: [[Float]] = []

        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            for o in 0..<target {
                let a = Double(o) * scale, b = Double(o + 1) * scale
                let first = Int(a), last = min(source, Int(b.rounded(.up)))
                var row: [Float] = []
                for i in first..<max(last, first + 1) {
                    let overlap = min(b, Double(i + 1)) - max(a, Double(i))
                    row.append(Float(max(0, overlap) / scale))
                }
                self.first.append(first)
                weights.append(row)
            }
        }
    }

    /// `image` (gray8 or rgb8) resized to `width`×`height`, each at most the source's.
    static func resize(_ image: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        if width == image.width && height == image.height { return image }
        let channels = image.format.bytesPerPixel
        let horizontal = Footprint(source: image.width, target: width)
        let vertical = Footprint(source: image.height, target: height)
        var out = [UInt8](repeating: 0, count: width * height * channels)
        var column = [Float](repeating: 0, count: image.width * channels)
        image.bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                column.withUnsafeMutableBufferPointer { row in
                    guard let src = source.baseAddress, let dst = target.baseAddress, let acc = row.baseAddress
                    else { return }
                    let rowCount = image.width * channels
                    for oy in 0..<height {
                        acc.update(repeating: 0, count: rowCount)
                        for (offset, weight) in vertical.weights[oy].enumerated() {
                            let line = src + (vertical.first[oy] + offset) * image.bytesPerRow
                            for i in 0..<rowCount { acc[i] += weight * Float(line[i]) }
                        }
                        let outLine = dst + oy * width * channels
                        for ox in 0..<width {
                            let start = horizontal.first[ox] * channels
                            for c in 0..<channels {
                                var sum: Float = 0.5
                                for (offset, weight) in horizontal.weights[ox].enumerated() {
                                    sum += weight * acc[start + offset * channels + c]
                                }
                                outLine[ox * channels + c] = UInt8(clamping: Int(sum))
                            }
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, format: image.format, bytes: out)
    }
}
