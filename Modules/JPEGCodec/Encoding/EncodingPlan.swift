
/// One encoding: the frame layout, tables and strip buffers for one image and one set of options, and the passes
/// that turn pixels into a JPEG stream.
struct EncodingPlan {
    let image: Bitmap
    let options: JPEGEncoder.Options
    let layout: FrameLayout
    let quantization: [QuantizationTable]

    init(image: Bitmap, options: JPEGEncoder.Options) {
        self.image = image
        self.options = options
        layout = FrameLayout(width: image.width, height: image.height, sampling: Self.sampling(image.format, options))
        let tuned = (options.tables ?? (options.trellis ? .ssimTuned : .annexK)) == .ssimTuned
        let luma = tuned ? TunedQuantization.luminance(quality: options.quality, trellis: options.trellis)
            : QuantizationTable(base: QuantizationTable.annexKLuminance, quality: options.quality)
        let chroma = QuantizationTable(base: QuantizationTable.annexKChrominance, quality: options.quality)
        quantization = layout.components.count == 1 ? [luma] : [luma, chroma]
    }

    /// Grey input makes a one-component frame; colour input follows the requested chroma subsampling.
    static func sampling(_ format: BitmapFormat, _ options: JPEGEncoder.Options) -> FrameSampling {
        if format == .gray8 { return .grayscale }
        return options.chroma == .halved ? .yCbCr420 : .yCbCr444
    }

    /// The output buffer starts at one strip's worth of typical output and grows only for unusual images.
    static func initialOutputCapacity(_ layout: FrameLayout) -> Int {
        max(1 << 14, layout.mcusPerRow * layout.blocksPerMCU * 128)
    }

    /// Encodes the image whose pixels start at `pixels` (already validated against the geometry), handing the bytes
    /// to `write` strip by strip.
    @inline(never)
    func run(pixels: UnsafePointer<UInt8>, to write: @escaping JPEGByteWriter) {
        let planes = StripPlanes(layout: layout)
        // Multipliers in zig-zag order, like the coefficients quantization writes.
        let multipliers = quantization.map { table in
            let natural = QuantizationMultipliers(table: table).values
            return ZigZag.naturalIndex.map { natural[$0] }
        }
        // RGBA rows are flattened onto white a strip at a time, into this (`StripConverter.convertFlattened`).
        let flattened = image.format == .rgba8
            ? UnsafeMutablePointer<UInt8>.allocate(capacity: StripConverter.flattenedStripBytes(layout)) : nil
        defer { flattened?.deallocate() }
        let converter = StripConverter(
            source: pixels, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow, layout: layout,
            flattenedRows: flattened)
        // One DC prediction per component, then the natural position of each zig-zag index.
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 4 + 64)
        defer { scratch.deallocate() }
        let predictions = scratch
        let scanOrder = scratch + 4
        for k in 0..<64 { scanOrder[k] = Int32(ZigZag.naturalIndex[k]) }

        let prepareWith = { (strip: Int, trellis: TrellisQuantizer?) in
            self.transform(
                strip: strip, converter: converter, planes: planes, multipliers: multipliers, scanOrder: scanOrder,
                trellis: trellis)
        }
        // Trellis quantisation (Trellis/): its rate model, and for baseline the tables to write with.
        let trellisPlan = options.trellis
            ? planTrellis(
                planes: planes, predictions: predictions, prepare: prepareWith,
                refine: { trellis in self.refine(planes: planes, with: trellis) }) : nil
        let prepare = { (strip: Int) in prepareWith(strip, trellisPlan?.quantizer) }

        if options.progressive {
            runProgressive(planes: planes, to: write, prepare: prepare)
            return
        }

        let chromaUsed = layout.components.count > 1
        var dc = [HuffmanSpec.luminanceDC, HuffmanSpec.chrominanceDC]
        var ac = [HuffmanSpec.luminanceAC, HuffmanSpec.chrominanceAC]
        if let trellisPlan {
            (dc, ac) = (trellisPlan.dc, trellisPlan.ac)
        } else if options.optimizeHuffman {
            var counter = SymbolCounter()
            predictions.initialize(repeating: 0, count: 4)
            let step = Self.countingStep(stripCount: layout.stripCount)
            for strip in stride(from: 0, to: layout.stripCount, by: step) {
                prepare(strip)
                code(strip: strip, planes: planes, predictions: predictions, into: &counter)
            }
            for table in 0..<(chromaUsed ? 2 : 1) {
                var dcCounts = counter.frequencies(ac: false, table: table)
                var acCounts = counter.frequencies(ac: true, table: table)
                if step > 1 {
                    // Strips that were not counted may use any symbol: give every baseline symbol a code.
                    for symbol in 0...11 { dcCounts[symbol] = max(dcCounts[symbol], 1) }
                    for symbol in HuffmanSpec.luminanceAC.symbols.map(Int.init) {
                        acCounts[symbol] = max(acCounts[symbol], 1)
                    }
                }
                dc[table] = HuffmanSpec(frequencies: dcCounts)
                ac[table] = HuffmanSpec(frequencies: acCounts)
            }
        }

        var writer = HuffmanBlockWriter(
            dc: dc.map(HuffmanEncodingTable.init), ac: ac.map(HuffmanEncodingTable.init),
            bits: BitWriter(capacity: Self.initialOutputCapacity(layout)))
        writer.bits.writeRaw(header(dc: dc, ac: ac))
        predictions.initialize(repeating: 0, count: 4)
        for strip in 0..<layout.stripCount {
            prepare(strip)
            code(strip: strip, planes: planes, predictions: predictions, into: &writer)
            writer.bits.drain(to: write)
        }
        writer.bits.flushBits()
        writer.bits.writeRaw(Markers.endOfImage)
        writer.bits.drain(to: write)
    }

    /// Which strips the optimised-table pass counts: all of them below 64 strips (1,024 rows at 4:2:0), every
    /// fourth from there on, where a sample of at least 16 strips gives tables within a fraction of a percent of
    /// the exact ones and the counting pass costs a quarter of a full one. (At 32 strips a quarter sample cost a
    /// low-quality photo more than 1%.)
    static func countingStep(stripCount: Int) -> Int {
        stripCount >= 64 ? 4 : 1
    }

    /// Every marker segment before the entropy-coded data.
    private func header(dc: [HuffmanSpec], ac: [HuffmanSpec]) -> [UInt8] {
        let tableCount = layout.components.count == 1 ? 1 : 2
        var tables: [(tableClass: Int, index: Int, spec: HuffmanSpec)] = []
        for index in 0..<tableCount { tables.append((0, index, dc[index])) }
        for index in 0..<tableCount { tables.append((1, index, ac[index])) }
        var bytes = Markers.startOfImage + Markers.jfif + Markers.quantizationTables(quantization)
        bytes += Markers.frame(width: image.width, height: image.height, components: layout.components)
        bytes += Markers.huffmanTables(tables)
        if options.restartInterval > 0 { bytes += Markers.restartInterval(options.restartInterval) }
        bytes += Markers.startOfScan(components: layout.components)
        return bytes
    }

    /// Fills the strip's planes from the source and turns them into quantized coefficients. Once per strip, and
    /// not inlined: the trellis plan and the coding passes call it through closures, each of which held a copy of
    /// it, every colour converter's dispatch included.
    @inline(never)
    private func transform(
        strip: Int, converter: StripConverter, planes: StripPlanes, multipliers: [[Float]],
        scanOrder: UnsafePointer<Int32>, trellis: TrellisQuantizer?
    ) {
        switch (image.format, layout.components.count) {
        case (.gray8, _): converter.convertGray(strip: strip, into: planes)
        case (.rgb8, 3) where layout.components[0].horizontal == 2:
            converter.convert420(RGBReader.self, strip: strip, into: planes)
        case (.rgba8, 3) where layout.components[0].horizontal == 2:
            converter.convertFlattened(strip: strip, into: planes, subsampled: true)
        case (.rgba8, _): converter.convertFlattened(strip: strip, into: planes, subsampled: false)
        default: converter.convert444(RGBReader.self, strip: strip, into: planes)
        }
        for (index, component) in layout.components.enumerated() {
            let samples = planes.samples[index]
            let coefficients = planes.coefficients[index]
            // Only a step of 1 lets float error reach |1024|, one past what baseline AC coding allows.
            let clampAC = quantization[component.table].steps.dropFirst().contains(1)
            multipliers[component.table].withUnsafeBufferPointer { table in
                guard let table = table.baseAddress else { return }
                // Groups past the last MCU column hold no real blocks; skip their transform.
                let usedGroups = (component.blocksWide + 7) / 8
                for blockRow in 0..<component.vertical {
                    for group in 0..<usedGroups {
                        let index = blockRow * component.groups + group
                        ForwardDCT.transform(samples + index * 64)
                        ForwardDCT.quantize(
                            samples + index * 64, multipliers: table, scanOrder: scanOrder, clampAC: clampAC,
                            into: coefficients + index * ForwardDCT.coefficientVectorsPerGroup)
                        trellis?.refine(
                            samples + index * 64,
                            coefficients: coefficients + index * ForwardDCT.coefficientVectorsPerGroup,
                            lanes: component.blocksWide - group * 8, table: component.table)
                    }
                }
            }
        }
    }

    /// Runs `trellis` over the quantised groups of the strip in `planes`, whose transform output is still in place
    /// (what `transform` does after quantising, for a strip prepared without it).
    private func refine(planes: StripPlanes, with trellis: TrellisQuantizer) {
        for (index, component) in layout.components.enumerated() {
            let samples = planes.samples[index]
            let coefficients = planes.coefficients[index]
            for blockRow in 0..<component.vertical {
                for group in 0..<(component.blocksWide + 7) / 8 {
                    let index = blockRow * component.groups + group
                    trellis.refine(
                        samples + index * 64,
                        coefficients: coefficients + index * ForwardDCT.coefficientVectorsPerGroup,
                        lanes: component.blocksWide - group * 8, table: component.table)
                }
            }
        }
    }

    /// Walks the strip's MCUs in order (T.81 A.2.3) and codes every block into `consumer`.
    func code<Consumer: SymbolConsumer & ~Copyable>(
        strip: Int, planes: StripPlanes, predictions: UnsafeMutablePointer<Int32>, into consumer: inout Consumer
    ) {
        let components = layout.components
        let bases = planes.coefficients.map { UnsafeRawPointer($0).assumingMemoryBound(to: Int32.self) }
        let interval = options.restartInterval
        let blocksPerMCU = layout.blocksPerMCU
        let magnitudes = UnsafePointer(planes.magnitudes.entries)
        // The consumer moves into a local for the strip: its state (the bit register) can then stay in registers
        // instead of going through memory at every symbol. It moves back before anything that takes its address.
        var local = consume consumer
        // DC predictions restart at each strip only through restart markers; keep them across strips.
        for mcuX in 0..<layout.mcusPerRow {
            let mcuIndex = strip * layout.mcusPerRow + mcuX
            if interval > 0 && mcuIndex > 0 && mcuIndex % interval == 0 {
                consumer = local
                consumer.restart(mcuIndex / interval - 1)
                local = consume consumer
                predictions.update(repeating: 0, count: 4)
            }
            local.beginMCU(blocks: blocksPerMCU)
            for (index, component) in components.enumerated() {
                for v in 0..<component.vertical {
                    for h in 0..<component.horizontal {
                        let blockX = mcuX * component.horizontal + h
                        let group = v * component.groups + blockX >> 3
                        let offset = group * ForwardDCT.coefficientVectorsPerGroup * 8 + (blockX & 7)
                        codeBlock(
                            bases[index] + offset, previousDC: &predictions[index], dcTable: component.table,
                            acTable: component.table, magnitudes: magnitudes, into: &local)
                    }
                }
            }
        }
        consumer = local
    }
}
