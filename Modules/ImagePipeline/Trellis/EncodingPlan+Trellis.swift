/// How an encoding with `Options.trellis` gets the code lengths its trellis quantizer charges, and the Huffman
/// tables it then writes with.
struct TrellisPlan {
    /// The quantizer every strip of the written pass goes through.
    let quantizer: TrellisQuantizer
    /// The tables a baseline encoding writes with (index 0 luma, 1 chroma); a progressive one builds its own per
    /// scan and ignores these.
    let dc: [HuffmanSpec]
    let ac: [HuffmanSpec]
}

extension EncodingPlan {
    /// λ when `Options.trellisLambda` is not set: squared quantiser steps of error one bit is worth (tuned with
    /// `ImageBench --size-at-ssim`, see Docs/ImagePipeline.md).
    static let defaultTrellisLambda: Float = 0.05
    /// The block AC energy at which λ doubles when `Options.trellisMasking` is not set (see `TrellisQuantizer`).
    static let defaultTrellisMasking: Float = 0

    /// Plans the trellis quantisation of this encoding. `prepare(strip, quantizer)` fills `planes` with the strip's
    /// quantised coefficients, refined by `quantizer` when one is given.
    ///
    /// With the Annex K tables (`optimizeHuffman` off, baseline) the rates are those tables' code lengths and
    /// nothing extra runs. Otherwise a first pass over the counting strips (`countingStep`) quantises with the
    /// Annex K lengths and counts the symbols; the tables built from those counts are the rates of the written
    /// pass and, for baseline, the tables it writes. (Counting rounded strips instead saves a fifth of the trellis
    /// time but wrote 0.0–0.5% more bytes at equal SSIM with the tuned tables; Annex K rates for progressive,
    /// without this pass, 0.1–0.4%.) A symbol those tables cannot code is never chosen by the written pass, and
    /// every symbol is kept codeable where strips went uncounted, so the output always fits.
    func planTrellis(
        planes: StripPlanes, predictions: UnsafeMutablePointer<Int32>,
        prepare: (Int, TrellisQuantizer?) -> Void
    ) -> TrellisPlan {
        let lambda = options.trellisLambda ?? Self.defaultTrellisLambda
        let masking = options.trellisMasking ?? Self.defaultTrellisMasking
        let standardDC = [HuffmanSpec.luminanceDC, HuffmanSpec.chrominanceDC]
        let standardAC = [HuffmanSpec.luminanceAC, HuffmanSpec.chrominanceAC]
        let first = TrellisQuantizer(ac: standardAC, quantization: quantization, lambda: lambda, masking: masking)
        guard options.optimizeHuffman || options.progressive else {
            return TrellisPlan(quantizer: first, dc: standardDC, ac: standardAC)
        }
        var counter = SymbolCounter()
        predictions.initialize(repeating: 0, count: 4)
        let step = Self.countingStep(stripCount: layout.stripCount)
        for strip in stride(from: 0, to: layout.stripCount, by: step) {
            prepare(strip, first)
            code(strip: strip, planes: planes, predictions: predictions, into: &counter)
        }
        // A progressive encoding only borrows these lengths as its rate model: keep every symbol affordable.
        let everySymbol = step > 1 || options.progressive
        var dc = standardDC
        var ac = standardAC
        for table in 0..<(layout.components.count > 1 ? 2 : 1) {
            var dcCounts = counter.frequencies(ac: false, table: table)
            var acCounts = counter.frequencies(ac: true, table: table)
            if everySymbol {
                for symbol in 0...11 { dcCounts[symbol] = max(dcCounts[symbol], 1) }
                for symbol in HuffmanSpec.luminanceAC.symbols.map(Int.init) { acCounts[symbol] = max(acCounts[symbol], 1) }
            }
            // End of block and the 16-zero run keep a code, so zeroing coefficients is always possible.
            for symbol in [0x00, 0xF0] { acCounts[symbol] = max(acCounts[symbol], 1) }
            dc[table] = HuffmanSpec(frequencies: dcCounts)
            ac[table] = HuffmanSpec(frequencies: acCounts)
        }
        let quantizer = TrellisQuantizer(ac: ac, quantization: quantization, lambda: lambda, masking: masking)
        return TrellisPlan(quantizer: quantizer, dc: dc, ac: ac)
    }
}
