/// A string cut at a separator, for the SDK's few parsers (tokens, language tags, JSON numbers, the built-in texts).
/// `split(separator:)` is specialised for `String` and again for `Substring` in the app, about 1 kB each, where this
/// one non-generic function serves every caller (Docs/Footprint.md).
package enum TextPieces {
    /// `text` cut at each `separator`, making at most `maxSplits` cuts and keeping empty pieces, as
    /// `text.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: false)` does.
    @inline(never) @_optimize(size)
    package static func split(_ text: Substring, at separator: Character, maxSplits: Int = .max) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            if pieces.count < maxSplits, text[index] == separator {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start..<text.endIndex])
        return pieces
    }
}
