/// The progressive path of `EncodingPlan` (T.81 G): a counting pass over (a sample of) the strips gives every scan
/// of `ProgressiveScan.script` optimised tables of its own, then a writing pass transforms each strip once and lets
/// every scan code it into its own buffer; the buffers are written out in scan order.
extension EncodingPlan {
    /// Encodes, handing the bytes to `write`; `prepare(strip)` fills `planes` with the strip's quantized coefficients.
    func runProgressive(planes: StripPlanes, to write: JPEGByteWriter, prepare: (Int) -> Void) {
        let source = StripCoefficients(planes: planes, layout: layout)
        let script = ProgressiveScan.script(componentCount: layout.components.count)
        let step = Self.countingStep(stripCount: layout.stripCount)

        // A refinement of DC is raw bits only; every other scan is counted for its own tables.
        let counted = script.filter { !($0.isDC && $0.isRefinement) }
        let counters = counted.map { ScanPass(coder: self.coder($0), consumer: SymbolCounter()) }
        for strip in stride(from: 0, to: layout.stripCount, by: step) {
            prepare(strip)
            source.update(layout: layout)
            for counter in counters { counter.code(strip: strip, source) }
        }
        for counter in counters { counter.finish() }
        var countersLeft = counters[...]

        var header = Markers.startOfImage + Markers.jfif + Markers.quantizationTables(quantization)
        header += Markers.frame(
            width: image.width, height: image.height, components: layout.components, progressive: true)
        if options.restartInterval > 0 { header += Markers.restartInterval(options.restartInterval) }
        let empty = HuffmanEncodingTable(HuffmanSpec(counts: Array(repeating: 0, count: 16), symbols: []))
        var writers: [ScanPass<HuffmanBlockWriter>] = []
        for scan in script {
            var tables: [(tableClass: Int, index: Int, spec: HuffmanSpec)] = []
            if !(scan.isDC && scan.isRefinement), let counter = countersLeft.popFirst() {
                tables = Self.tables(for: scan, counts: counter.consumer, step: step, layout: layout)
            }
            // The first scan's buffer starts with the file's header and is handed on strip by strip.
            let capacity = writers.isEmpty ? Self.initialOutputCapacity(layout) : Self.laterScanCapacity
            var writer = HuffmanBlockWriter(dc: [empty, empty], ac: [empty, empty], bits: BitWriter(capacity: capacity))
            for table in tables {
                writer.use(HuffmanEncodingTable(table.spec), ac: table.tableClass == 1, slot: table.index)
            }
            if writers.isEmpty { writer.bits.writeRaw(header) }
            writer.bits.writeRaw(
                (tables.isEmpty ? [] : Markers.huffmanTables(tables))
                    + Markers.startOfScan(scan, components: layout.components))
            writers.append(ScanPass(coder: coder(scan), consumer: writer))
        }

        for strip in 0..<layout.stripCount {
            prepare(strip)
            source.update(layout: layout)
            for writer in writers { writer.code(strip: strip, source) }
            writers[0].consumer.bits.drain(to: write)
        }
        for writer in writers {
            writer.finish()
            writer.consumer.bits.flushBits()
            writer.consumer.bits.drain(to: write)
        }
        Markers.endOfImage.withUnsafeBytes { write($0) }
    }

    /// The initial buffer of every scan after the first; each grows (doubling) to hold its scan's bytes.
    static let laterScanCapacity = 1 << 14

    /// Bytes of working memory the progressive path adds to the strip planes, before any scan's buffer grows:
    /// the masks, each scan's code tables and the later scans' initial buffers.
    static func progressiveWorkingBytes(_ layout: FrameLayout) -> Int {
        let scans = ProgressiveScan.script(componentCount: layout.components.count).count
        return StripCoefficients.byteCount(layout) + scans * 4 * 256 * 8 + (scans - 1) * laterScanCapacity
    }

    private func coder(_ scan: ProgressiveScan) -> ProgressiveScanCoder {
        ProgressiveScanCoder(scan: scan, layout: layout, restartInterval: options.restartInterval)
    }

    /// The DHT entries of one scan from its counts. Above 64 strips the count saw a sample, so every symbol the scan
    /// could use keeps a code.
    private static func tables(
        for scan: ProgressiveScan, counts counter: borrowing SymbolCounter, step: Int, layout: FrameLayout
    ) -> [(tableClass: Int, index: Int, spec: HuffmanSpec)] {
        if scan.isDC {
            // The DC tables the scan's components use, each once, in ascending order (each put in its place as it
            // is met: a library sort brought its own code for a list of at most four).
            var used: [Int] = []
            for component in scan.components {
                let table = layout.components[component].table
                var at = used.count
                while at > 0 && used[at - 1] > table { at -= 1 }
                if at > 0 && used[at - 1] == table { continue }
                used.insert(table, at: at)
            }
            return used.map { slot in
                var counts = counter.frequencies(ac: false, table: slot)
                // Strips that were not counted may use any DC category.
                if step > 1 { for symbol in 0...11 { counts[symbol] = max(counts[symbol], 1) } }
                return (0, slot, HuffmanSpec(frequencies: counts))
            }
        }
        var counts = counter.frequencies(ac: true, table: 0)
        if step > 1 {
            // Every run/size symbol, ZRL (0xF0) and every end-of-band run length (0x00 … 0xE0).
            for run in 0..<16 {
                for size in 0...10 { counts[run << 4 | size] = max(counts[run << 4 | size], 1) }
            }
        }
        return [(1, 0, HuffmanSpec(frequencies: counts))]
    }
}

/// One scan's coder with the consumer it feeds (counter or writer), kept together by reference so the scans of a
/// frame can sit in an array and each code a strip in turn.
final class ScanPass<Consumer: SymbolConsumer & ~Copyable> {
    var coder: ProgressiveScanCoder
    var consumer: Consumer

    init(coder: consuming ProgressiveScanCoder, consumer: consuming Consumer) {
        self.coder = coder
        self.consumer = consumer
    }

    func code(strip: Int, _ source: StripCoefficients) {
        coder.code(strip: strip, source, into: &consumer)
    }

    func finish() {
        coder.finish(into: &consumer)
    }
}
