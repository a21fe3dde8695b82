/// The progressive path of `EncodingPlan` (T.81 G): the strips are transformed once into a `CoefficientImage`,
/// then each scan of `ProgressiveScan.script` is counted, given optimised tables of its own and written.
extension EncodingPlan {
    /// Encodes into `sink`; `prepare(strip)` fills `planes` with the strip's quantized coefficients.
    func runProgressive<Sink: JPEGByteSink>(planes: StripPlanes, into sink: inout Sink, prepare: (Int) -> Void) {
        let coefficients = CoefficientImage(layout: layout)
        for strip in 0..<layout.stripCount {
            prepare(strip)
            coefficients.store(strip: strip, from: planes, layout: layout)
        }
        var coder = ProgressiveScanCoder(
            image: coefficients, layout: layout, restartInterval: options.restartInterval)
        let empty = HuffmanEncodingTable(HuffmanSpec(counts: Array(repeating: 0, count: 16), symbols: []))
        var writer = HuffmanBlockWriter(
            dc: [empty, empty], ac: [empty, empty], bits: BitWriter(capacity: Self.initialOutputCapacity(layout)))
        var header = Markers.startOfImage + Markers.jfif + Markers.quantizationTables(quantization)
        header += Markers.frame(
            width: image.width, height: image.height, components: layout.components, progressive: true)
        if options.restartInterval > 0 { header += Markers.restartInterval(options.restartInterval) }
        writer.bits.writeRaw(header)
        for scan in ProgressiveScan.script(componentCount: layout.components.count) {
            var tables: [(tableClass: Int, index: Int, spec: HuffmanSpec)] = []
            if !(scan.isDC && scan.isRefinement) {
                // A refinement of DC is raw bits only; every other scan is counted first for its own tables.
                var counter = SymbolCounter()
                let step = Self.countingStep(stripCount: layout.stripCount)
                coder.code(scan, into: &counter, stripStep: step)
                if scan.isDC {
                    let used = Set(scan.components.map { layout.components[$0].table }).sorted()
                    for slot in used {
                        var counts = counter.frequencies(ac: false, table: slot)
                        // Strips that were not counted may use any DC category.
                        if step > 1 { for symbol in 0...11 { counts[symbol] = max(counts[symbol], 1) } }
                        tables.append((0, slot, HuffmanSpec(frequencies: counts)))
                    }
                } else {
                    var counts = counter.frequencies(ac: true, table: 0)
                    if step > 1 {
                        // Every run/size symbol, ZRL (0xF0) and every end-of-band run length (0x00 … 0xE0).
                        for run in 0..<16 {
                            for size in 0...10 {
                                counts[run << 4 | size] = max(counts[run << 4 | size], 1)
                            }
                        }
                    }
                    tables.append((1, 0, HuffmanSpec(frequencies: counts)))
                }
            }
            for table in tables {
                writer.use(HuffmanEncodingTable(table.spec), ac: table.tableClass == 1, slot: table.index)
            }
            writer.bits.writeRaw(
                (tables.isEmpty ? [] : Markers.huffmanTables(tables))
                    + Markers.startOfScan(scan, components: layout.components))
            coder.code(scan, into: &writer)
            writer.bits.flushBits()
            writer.bits.drain(into: &sink)
        }
        writer.bits.writeRaw(Markers.endOfImage)
        writer.bits.drain(into: &sink)
    }
}
