/// The marker segments of a baseline or progressive JFIF file (T.81 Annex B, JFIF 1.02). Nothing else is written: no EXIF, no
/// GPS, no comment, so a photo leaves the device without metadata.
enum Markers {
    static let startOfImage: [UInt8] = [0xFF, 0xD8]
    static let endOfImage: [UInt8] = [0xFF, 0xD9]

    /// APP0 "JFIF" version 1.01, aspect ratio 1:1, no thumbnail.
    static let jfif: [UInt8] = [
        0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    ]

    /// DQT with every table (8-bit precision), steps in zig-zag order.
    @_optimize(size) static func quantizationTables(_ tables: [QuantizationTable]) -> [UInt8] {
        var body: [UInt8] = []
        for (index, table) in tables.enumerated() {
            body.append(UInt8(index))
            for k in 0..<64 { body.append(UInt8(truncatingIfNeeded: table.steps[ZigZag.naturalIndex[k]])) }
        }
        return segment(0xDB, body)
    }

    /// SOF0 (baseline DCT) or SOF2 (progressive DCT, Huffman): 8-bit samples, the frame size, and per component
    /// its id, sampling factors and table.
    @_optimize(size)
    static func frame(width: Int, height: Int, components: [ComponentLayout], progressive: Bool = false) -> [UInt8] {
        var body: [UInt8] = [8]
        body += bigEndian16(height) + bigEndian16(width)
        body.append(UInt8(components.count))
        for component in components {
            body += [component.id, UInt8(component.horizontal << 4 | component.vertical), UInt8(component.table)]
        }
        return segment(progressive ? 0xC2 : 0xC0, body)
    }

    /// DHT with the given tables; `tableClass` 0 is DC, 1 is AC.
    @_optimize(size)
    static func huffmanTables(_ tables: [(tableClass: Int, index: Int, spec: HuffmanSpec)]) -> [UInt8] {
        var body: [UInt8] = []
        for table in tables {
            body.append(UInt8(table.tableClass << 4 | table.index))
            body += table.spec.counts
            body += table.spec.symbols
        }
        return segment(0xC4, body)
    }

    /// DRI: a restart marker after every `interval` MCUs.
    @_optimize(size) static func restartInterval(_ interval: Int) -> [UInt8] {
        segment(0xDD, bigEndian16(interval))
    }

    /// SOS for one interleaved scan over every component, full spectral range (baseline).
    @_optimize(size) static func startOfScan(components: [ComponentLayout]) -> [UInt8] {
        var body: [UInt8] = [UInt8(components.count)]
        for component in components {
            body += [component.id, UInt8(component.table << 4 | component.table)]
        }
        body += [0, 63, 0]
        return segment(0xDA, body)
    }

    /// SOS for one scan of a progressive frame: its components with their DC table (interleaved DC scans) or AC
    /// table 0 (single-component AC scans), the band `start...end` and the bit positions Ah and Al.
    @_optimize(size) static func startOfScan(_ scan: ProgressiveScan, components: [ComponentLayout]) -> [UInt8] {
        var body: [UInt8] = [UInt8(scan.components.count)]
        for index in scan.components {
            let component = components[index]
            body += [component.id, UInt8(scan.isDC ? component.table << 4 : 0)]
        }
        body += [UInt8(scan.start), UInt8(scan.end), UInt8(scan.high << 4 | scan.low)]
        return segment(0xDA, body)
    }

    /// RSTm, m = `index` mod 8.
    @_optimize(size) static func restart(_ index: Int) -> [UInt8] { [0xFF, UInt8(0xD0 + index % 8)] }

    @_optimize(size) private static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + bigEndian16(body.count + 2) + body
    }

    @_optimize(size) private static func bigEndian16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
