// CacheBench: the message cache's three hot paths, each beside two baselines measured in the same run.
//
//   swift run -c release CacheBench [append] [load] [outbox]
//
// Targets (issue 5): SQLiteMessageStore at ≥ 0.8× the throughput of raw SQLite C calls doing the same SQL, and
// ≥ 10× faster than rewriting one JSON file per change when appending at a full window with photos.
import Foundation

let root = FileManager.default.temporaryDirectory.appendingPathComponent("CacheBench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: root) }

do {
    var bench = Bench(root: root)
    bench.only = Set(CommandLine.arguments.dropFirst())
    let report = try bench.run()
    print(report)
} catch {
    print("CacheBench failed: \(error)")
    exit(1)
}
