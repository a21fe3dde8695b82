/// The part of an ICC profile (ICC.1:2022, versions 2 and 4) that photo preparation needs to convert a picture to
/// sRGB: a matrix/TRC ("matrix-shaper") RGB profile's three colorants and tone curves, or a grey profile's tone
/// curve. That is what cameras and editors embed: Display P3, Adobe RGB (1998), ProPhoto RGB, the sRGB variants.
///
/// Hostile input is the normal case: the file's own size field, the tag count, and every tag's offset and size are
/// range-checked against the bytes before anything is read or allocated, and nothing is allocated beyond a tag's
/// declared size (a `curv` table's entries). Anything else — a LUT-only profile (`A2B0` without colorants), a
/// colour space other than RGB or grey, a Lab PCS, a device link, a truncated tag — reads as nil: not converted.
package struct ICCProfile {
    /// The device colours and how each maps to the profile connection space (XYZ, D50).
    package enum Colours {
        /// The red, green and blue colorants (`rXYZ`, `gXYZ`, `bXYZ`; D50-adapted, as versions 2 and 4 store them)
        /// as the columns of a row-major 3×3 matrix, and the three tone curves.
        case rgb(colorants: [Double], curves: [ToneCurve])
        /// A grey profile's `kTRC`.
        case grey(ToneCurve)
    }

    package let colours: Colours

    /// The largest profile read (4 MiB): real matrix/TRC profiles are under 4 KiB, LUT profiles under 1 MiB.
    package static let maximumSize = 4 << 20
    /// The most tags read from the tag table (real profiles have 9–20).
    static let maximumTags = 1024

    /// Reads `bytes`; nil when they are not a matrix/TRC RGB or grey profile this reader understands.
    @_optimize(size) package init?(_ bytes: [UInt8]) {
        guard let colours = bytes.withUnsafeBufferPointer({ ICCProfileReader($0)?.colours() }) else { return nil }
        self.colours = colours
    }
}

/// The header and tag table of one profile, checked, and the typed reads over its tags.
struct ICCProfileReader {
    private let data: UnsafeBufferPointer<UInt8>
    /// The profile's size as its header declares it (at most the bytes at hand): every tag must lie within it.
    private let size: Int
    private let colourSpace: UInt32
    /// Each tag's signature and its byte range, already checked to lie within `size`.
    private var tags: [(signature: UInt32, range: Range<Int>)] = []

    @_optimize(size) static func signature(_ text: StaticString) -> UInt32 {
        var value: UInt32 = 0
        text.withUTF8Buffer { for byte in $0 { value = value << 8 | UInt32(byte) } }
        return value
    }

    @_optimize(size) init?(_ data: UnsafeBufferPointer<UInt8>) {
        self.data = data
        // Header (128 bytes) and the tag count.
        guard data.count >= 132, data.count <= ICCProfile.maximumSize else { return nil }
        @_optimize(size) func word(_ at: Int) -> UInt32 { Self.word(data, at) }
        let declared = Int(word(0))
        guard declared >= 132, declared <= data.count else { return nil }
        size = declared
        let major = data[8]
        guard major == 2 || major == 4 else { return nil }
        let deviceClass = word(12)
        guard deviceClass != Self.signature("link"), deviceClass != Self.signature("abst"),
              deviceClass != Self.signature("nmcl")
        else { return nil }
        colourSpace = word(16)
        guard colourSpace == Self.signature("RGB ") || colourSpace == Self.signature("GRAY"),
              word(20) == Self.signature("XYZ ")
        else { return nil }
        let count = Int(word(128))
        guard count <= ICCProfile.maximumTags, count <= (size - 132) / 12 else { return nil }
        tags.reserveCapacity(count)
        for index in 0..<count {
            let entry = 132 + 12 * index
            let offset = Int(word(entry + 4)), length = Int(word(entry + 8))
            // Offsets and sizes are 32-bit, so neither sum can overflow an Int; both are checked against the size.
            guard offset >= 128, length >= 8, offset <= size, length <= size - offset else { return nil }
            tags.append((word(entry), offset..<(offset + length)))
        }
    }

    /// The big-endian 32-bit number at `at` (callers have checked that four bytes are there).
    @_optimize(size) private static func word(_ data: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }

    @_optimize(size) private func word(_ at: Int) -> UInt32 { Self.word(data, at) }

    @_optimize(size) private func tag(_ signature: StaticString) -> Range<Int>? {
        let wanted = Self.signature(signature)
        for entry in tags where entry.signature == wanted { return entry.range }
        return nil
    }

    /// The colorants and curves, or nil when any of them is missing or unreadable.
    @_optimize(size) func colours() -> ICCProfile.Colours? {
        if colourSpace == Self.signature("GRAY") {
            guard let range = tag("kTRC"), let curve = curve(range) else { return nil }
            return .grey(curve)
        }
        guard let red = tag("rXYZ"), let green = tag("gXYZ"), let blue = tag("bXYZ"),
              let redCurve = tag("rTRC"), let greenCurve = tag("gTRC"), let blueCurve = tag("bTRC"),
              let r = xyz(red), let g = xyz(green), let b = xyz(blue),
              let rc = curve(redCurve), let gc = curve(greenCurve), let bc = curve(blueCurve)
        else { return nil }
        // Columns r, g, b; rows X, Y, Z.
        return .rgb(colorants: [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]], curves: [rc, gc, bc])
    }

    /// A signed 15.16 fixed-point number.
    @_optimize(size) private func s15Fixed16(_ at: Int) -> Double {
        Double(Int32(bitPattern: word(at))) / 65536
    }

    /// An `XYZType` tag's first value.
    @_optimize(size) private func xyz(_ range: Range<Int>) -> [Double]? {
        guard range.count >= 20, word(range.lowerBound) == Self.signature("XYZ ") else { return nil }
        let at = range.lowerBound + 8
        let value = [s15Fixed16(at), s15Fixed16(at + 4), s15Fixed16(at + 8)]
        // A colorant outside ±4 is no display's: refuse it rather than build an absurd matrix.
        guard value.allSatisfy({ $0 > -4 && $0 < 4 }) else { return nil }
        return value
    }

    /// A `curveType` or `parametricCurveType` tag.
    @_optimize(size) private func curve(_ range: Range<Int>) -> ToneCurve? {
        guard range.count >= 12 else { return nil }
        let start = range.lowerBound
        let type = word(start)
        if type == Self.signature("curv") {
            let count = Int(word(start + 8))
            // Two bytes an entry, all within the tag: this also bounds the allocation by the tag's size.
            guard count <= (range.count - 12) / 2 else { return nil }
            switch count {
            case 0: return .identity
            case 1: return .gamma(Double(Int(data[start + 12]) << 8 | Int(data[start + 13])) / 256)
            default:
                let entries = (0..<count).map { index in
                    UInt16(data[start + 12 + 2 * index]) << 8 | UInt16(data[start + 13 + 2 * index])
                }
                return .table(entries)
            }
        }
        guard type == Self.signature("para") else { return nil }
        let function = Int(data[start + 8]) << 8 | Int(data[start + 9])
        guard function < ToneCurve.parameterCounts.count else { return nil }
        let count = ToneCurve.parameterCounts[function]
        guard range.count >= 12 + 4 * count else { return nil }
        var parameters = [Double](repeating: 0, count: 7)
        for index in 0..<count { parameters[index] = s15Fixed16(start + 12 + 4 * index) }
        return .parametric(type: function, parameters: parameters)
    }
}
