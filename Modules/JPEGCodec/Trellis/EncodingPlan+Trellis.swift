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
    /// `ImageBench --size-at-ssim`, see Docs/ImagePipeline.md), 0.05 over the tuned tables and 0.03 over the Annex K
    /// ones, whose distortion is weighted by frequency (`defaultTrellisWeighting`).
    static func defaultTrellisLambda(annexK: Bool) -> Float { annexK ? 0.03 : 0.05 }
    /// The distortion weighting (`TrellisQuantizer`'s exponent e) when `Options.trellisWeighting` is not set: ½
    /// over the Annex K tables, so each coefficient's squared error counts by its step once instead of twice (bytes
    /// at equal SSIM ×0.958 → ×0.936 on the held-out photos, ×0.918 → ×0.913 on the trimmed varied set, q75/85);
    /// 0 over the tuned tables, which were fitted to the plain weighting and gain nothing measurable from it.
    static func defaultTrellisWeighting(annexK: Bool) -> Float { annexK ? 0.5 : 0 }
    /// The block AC energy at which λ doubles when `Options.trellisMasking` is not set (see `TrellisQuantizer`).
    static let defaultTrellisMasking: Float = 0

    /// Which strips the trellis plan counts: all of them below 64 strips, every eighth from there on (half the
    /// optimised-table pass's sample: the trellis mode runs at ×0.5 of libjpeg-turbo's baseline only just, and a
    /// quarter sample cost it 1.1–1.2 ms per 2048² frame for 0.2–0.3% fewer bytes at equal quality).
    static func trellisCountingStep(stripCount: Int) -> Int {
        stripCount >= 64 ? 8 : 1
    }

    /// Of the counting strips, which ones the trellis also refines to measure its effect on the statistics: every
    /// second (see `planTrellis`), a sixteenth of a large image.
    static let trellisSampleStep = 2

    /// Plans the trellis quantisation of this encoding. `prepare(strip, quantizer)` fills `planes` with the strip's
    /// quantised coefficients, refined by `quantizer` when one is given; `refine(quantizer)` refines the strip
    /// last prepared without one, in place.
    ///
    /// With the Annex K tables (`optimizeHuffman` off, baseline) the rates are those tables' code lengths and
    /// nothing extra runs. Otherwise a first pass over the counting strips (`trellisCountingStep`) counts the
    /// symbols of the rounded coefficients, and on every `trellisSampleStep`th of them also those of the same strip
    /// refined with the Annex K lengths; each AC symbol's count is scaled by its refined / rounded ratio on that
    /// sample (the trellis mostly thins out short runs of ±1 ahead of the end of block). The tables built from
    /// those counts are the rates of the written pass and, for baseline, the tables it writes. (Counting rounded
    /// strips alone saved a fifth of the trellis time but wrote 0.3–1.0% more bytes at equal quality; refining
    /// every counting strip wrote within ±0.2% of the scaled counts, for four times the counting pass's trellis.
    /// Annex K rates for progressive, without this pass, cost 0.1–0.4%.) A symbol those tables cannot code is
    /// never chosen by the written pass, every rounded symbol keeps a code, and every symbol is kept codeable where
    /// strips went uncounted, so the output always fits.
    func planTrellis(
        planes: StripPlanes, predictions: UnsafeMutablePointer<Int32>,
        prepare: (Int, TrellisQuantizer?) -> Void, refine: (TrellisQuantizer) -> Void
    ) -> TrellisPlan {
        let annexK = options.tables == .annexK
        let lambda = options.trellisLambda ?? Self.defaultTrellisLambda(annexK: annexK)
        let masking = options.trellisMasking ?? Self.defaultTrellisMasking
        let weighting = options.trellisWeighting ?? Self.defaultTrellisWeighting(annexK: annexK)
        let standardDC = [HuffmanSpec.luminanceDC, HuffmanSpec.chrominanceDC]
        let standardAC = [HuffmanSpec.luminanceAC, HuffmanSpec.chrominanceAC]
        let first = TrellisQuantizer(
            ac: standardAC, quantization: quantization, lambda: lambda, masking: masking, weighting: weighting)
        guard options.optimizeHuffman || options.progressive else {
            return TrellisPlan(quantizer: first, dc: standardDC, ac: standardAC)
        }
        var counter = SymbolCounter()
        var roundedSample = SymbolCounter()
        var refinedSample = SymbolCounter()
        predictions.initialize(repeating: 0, count: 4)
        let step = Self.trellisCountingStep(stripCount: layout.stripCount)
        for (index, strip) in stride(from: 0, to: layout.stripCount, by: step).enumerated() {
            prepare(strip, nil)
            let before = (predictions[0], predictions[1], predictions[2], predictions[3])
            code(strip: strip, planes: planes, predictions: predictions, into: &counter)
            guard index % Self.trellisSampleStep == 0 else { continue }
            // The trellis leaves DC alone, so each sample coding starts from the same predictions and ends where
            // the counting one did.
            (predictions[0], predictions[1], predictions[2], predictions[3]) = before
            code(strip: strip, planes: planes, predictions: predictions, into: &roundedSample)
            refine(first)
            (predictions[0], predictions[1], predictions[2], predictions[3]) = before
            code(strip: strip, planes: planes, predictions: predictions, into: &refinedSample)
        }
        // A progressive encoding only borrows these lengths as its rate model: keep every symbol affordable.
        let everySymbol = step > 1 || options.progressive
        var dc = standardDC
        var ac = standardAC
        for table in 0..<(layout.components.count > 1 ? 2 : 1) {
            var dcCounts = counter.frequencies(ac: false, table: table)
            var acCounts = counter.frequencies(ac: true, table: table)
            let rounded = roundedSample.frequencies(ac: true, table: table)
            let refined = refinedSample.frequencies(ac: true, table: table)
            for symbol in acCounts.indices where acCounts[symbol] > 0 {
                let ratio = Double(refined[symbol] + 1) / Double(rounded[symbol] + 1)
                acCounts[symbol] = max(1, Int((Double(acCounts[symbol]) * ratio).rounded()))
            }
            if everySymbol {
                for symbol in 0...11 { dcCounts[symbol] = max(dcCounts[symbol], 1) }
                for symbol in HuffmanSpec.luminanceAC.symbols.map(Int.init) { acCounts[symbol] = max(acCounts[symbol], 1) }
            }
            // End of block and the 16-zero run keep a code, so zeroing coefficients is always possible.
            for symbol in [0x00, 0xF0] { acCounts[symbol] = max(acCounts[symbol], 1) }
            dc[table] = HuffmanSpec(frequencies: dcCounts)
            ac[table] = HuffmanSpec(frequencies: acCounts)
        }
        let quantizer = TrellisQuantizer(
            ac: ac, quantization: quantization, lambda: lambda, masking: masking, weighting: weighting)
        return TrellisPlan(quantizer: quantizer, dc: dc, ac: ac)
    }
}
