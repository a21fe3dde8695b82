import Foundation

/// A string's UTF-8 bytes as `Data`. `Data(text.utf8)` is `Data`'s generic sequence initializer, which the app keeps
/// specialised (2.2 kB on iOS) for the few callers that store or decode a string; Foundation's own conversion is
/// already in every app (Docs/Footprint.md).
package enum UTF8Bytes {
    /// `text`'s UTF-8 bytes. Every Swift string has them, so the fallback is never taken.
    @inline(never) @_optimize(size) package static func data(_ text: String) -> Data {
        text.data(using: .utf8) ?? Data()
    }
}
