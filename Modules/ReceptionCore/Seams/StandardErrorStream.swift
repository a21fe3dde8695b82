import Foundation

/// A `TextOutputStream` over standard error, unbuffered, so log lines interleave correctly with a crash report.
struct StandardErrorStream: TextOutputStream {
    @inline(never) @_optimize(size) mutating func write(_ string: String) {
        FileHandle.standardError.write(UTF8Bytes.data(string))
    }
}
