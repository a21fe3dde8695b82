import JPEGCodec

/// Turns one unfiltered PNG row (any colour type and depth) into 8-bit output pixels at `x0, x0 + dx, …` of an
/// output row, applying the palette and `tRNS` transparency.
struct PNGRowConverter {
    let header: PNGHeader
    let format: BitmapFormat
    /// The palette padded to 256 RGBA entries (opaque black beyond the file's palette).
    let palette: [UInt8]
    let transparency: PNGTransparency?

    init(header: PNGHeader, format: BitmapFormat, palette: [UInt8], transparency: PNGTransparency?) {
        self.header = header
        self.format = format
        var padded = palette
        while padded.count < 1024 { padded += [0, 0, 0, 255] }
        self.palette = padded
        self.transparency = transparency
    }

    /// 16 → 8 bits by rounding `v × 255 / 65,535` (the same as `v / 257` rounded).
    @inline(__always) private static func reduce(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (value &* 255 &+ 32_895) >> 16)
    }

    func convert(_ raw: UnsafeMutablePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt8>, x0: Int, dx: Int) {
        let depth = header.bitDepth
        let stride = format.bytesPerPixel
        // Straight copies: 8-bit data already in the output layout.
        if dx == 1, depth == 8, transparency == nil,
            header.colorType == 0 || header.colorType == 2 || header.colorType == 6
        {
            (out + x0 * stride).update(from: raw, count: width * stride)
            return
        }
        switch header.colorType {
        case 0, 3:
            let maximum = (1 << depth) - 1
            let scale = depth < 8 ? 255 / maximum : 1
            for i in 0..<width {
                let value: Int
                switch depth {
                case 16: value = Int(raw[2 * i]) << 8 | Int(raw[2 * i + 1])
                case 8: value = Int(raw[i])
                default:
                    let bit = i * depth
                    value = Int(raw[bit >> 3] >> UInt8(8 - depth - (bit & 7))) & maximum
                }
                let o = out + (x0 + i * dx) * stride
                if header.colorType == 3 {
                    let entry = value * 4
                    o[0] = palette[entry]
                    o[1] = palette[entry + 1]
                    o[2] = palette[entry + 2]
                    if stride == 4 { o[3] = palette[entry + 3] }
                    continue
                }
                let grey = depth == 16 ? Self.reduce(value) : UInt8(truncatingIfNeeded: value * scale)
                if stride == 1 {
                    o[0] = grey
                } else {
                    o[0] = grey
                    o[1] = grey
                    o[2] = grey
                    o[3] = value == transparency?.grey ? 0 : 255
                }
            }
        case 2:
            for i in 0..<width {
                let o = out + (x0 + i * dx) * stride
                var r: Int, g: Int, b: Int
                if depth == 16 {
                    let p = raw + 6 * i
                    r = Int(p[0]) << 8 | Int(p[1])
                    g = Int(p[2]) << 8 | Int(p[3])
                    b = Int(p[4]) << 8 | Int(p[5])
                    o[0] = Self.reduce(r)
                    o[1] = Self.reduce(g)
                    o[2] = Self.reduce(b)
                } else {
                    let p = raw + 3 * i
                    (r, g, b) = (Int(p[0]), Int(p[1]), Int(p[2]))
                    o[0] = p[0]
                    o[1] = p[1]
                    o[2] = p[2]
                }
                if stride == 4, let key = transparency {
                    o[3] = (r == key.red && g == key.green && b == key.blue) ? 0 : 255
                }
            }
        default:
            // Grey + alpha (4) or RGBA (6), 8 or 16 bits; grey is widened to RGB.
            let channels = header.channels
            for i in 0..<width {
                let o = out + (x0 + i * dx) * stride
                var samples: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                withUnsafeMutableBytes(of: &samples) { s in
                    for c in 0..<channels {
                        if depth == 16 {
                            let p = raw + (i * channels + c) * 2
                            s[c] = Self.reduce(Int(p[0]) << 8 | Int(p[1]))
                        } else {
                            s[c] = raw[i * channels + c]
                        }
                    }
                }
                if channels == 2 {
                    (o[0], o[1], o[2], o[3]) = (samples.0, samples.0, samples.0, samples.1)
                } else {
                    (o[0], o[1], o[2], o[3]) = samples
                }
            }
        }
    }
}
