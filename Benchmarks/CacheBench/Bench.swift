import Foundation
import ReceptionCore

/// Runs every scenario over the three contenders and formats the comparison.
struct Bench {
    let root: URL
    let appends = 200
    let loads = 200
    let roundTrips = 60
    /// Scenario names to run (`append`, `load`, `outbox`); all when empty, e.g. to profile one of them.
    var only: Set<String> = []

    private func makeContenders(_ scenario: String) throws -> [any Contender] {
        func folder(_ name: String) throws -> URL {
            let url = root.appendingPathComponent("\(scenario)-\(name)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        return [
            try StoreContender(directory: folder("store")), try RawSQLiteContender(directory: folder("raw")),
            JSONFileContender(directory: try folder("json")),
        ]
    }

    /// Fills a contender with a full window whose unsent messages carry two photos each.
    private func fill(_ contender: any Contender, photos: [Data]) throws {
        let window = Workload.fullWindow(photos: photos)
        for message in window.unsent { try contender.enqueue(message) }
        for message in window.confirmed { try contender.appendConfirmed(message) }
    }

    /// Median seconds per operation for each contender. Operations are interleaved (one per contender in turn,
    /// the order rotating) so that load from other processes on this shared machine falls on all of them alike;
    /// the median ignores the occasional stall.
    private func medianSeconds(
        _ contenders: [any Contender], count: Int, _ operation: (any Contender, Int) throws -> Void
    ) rethrows -> [Double] {
        let clock = ContinuousClock()
        var samples = Array(repeating: [Double](), count: contenders.count)
        for index in -2..<count {  // two warm-up rounds, not recorded
            for turn in 0..<contenders.count {
                let which = (turn + max(index, 0)) % contenders.count
                let elapsed = try clock.measure { try operation(contenders[which], index) }
                if index >= 0 {
                    samples[which].append(
                        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                }
            }
        }
        return samples.map { $0.sorted()[$0.count / 2] }
    }

    func run() throws -> String {
        let photos = [Workload.photo(1), Workload.photo(2)]
        var rows: [(String, [Double])] = []

        // 1. Append one confirmed message, one commit each, at a full window with photos.
        if only.isEmpty || only.contains("append") {
        let appending = try makeContenders("append")
        for contender in appending { try fill(contender, photos: photos) }
        rows.append(("append 1 confirmed (full window + 4 photos)", try medianSeconds(appending, count: appends) {
            contender, index in try contender.appendConfirmed(Workload.confirmed(Int64(1_000 + index)))
        }))
        }

        // 2. Load the window (52 messages, 4 photos of 300 KB).
        if only.isEmpty || only.contains("load") {
        let loading = try makeContenders("load")
        for contender in loading { try fill(contender, photos: photos) }
        rows.append(("load window (52 msgs, 4 photos)", try medianSeconds(loading, count: loads) { contender, _ in
            guard try contender.loadWindowCount() == 52 else { throw BenchFailure(description: "window size") }
        }))
        }

        // 3. Enqueue a message with two 300 KB photos, then complete it with the confirmed copy.
        if only.isEmpty || only.contains("outbox") {
        let sending = try makeContenders("outbox")
        for contender in sending { try fill(contender, photos: photos) }
        rows.append(("enqueue + complete, 2×300 KB photos", try medianSeconds(sending, count: roundTrips) {
            contender, index in
            let message = Workload.unsent(10_000 + index, photos: photos)
            try contender.enqueue(message)
            try contender.complete(message.id, with: Workload.confirmation(of: message, seq: Int64(5_000 + index)))
        }))
        }

        return format(rows)
    }

    private func format(_ rows: [(String, [Double])]) -> String {
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func rate(_ seconds: Double) -> String { String(format: "%9.0f ops/s (%8.3f ms)", 1 / seconds, seconds * 1e3) }
        var lines = [
            "CacheBench (release): SQLiteMessageStore vs raw SQLite C calls vs rewriting one JSON file",
            pad("scenario", 44) + pad("SQLiteMessageStore", 30) + pad("raw SQLite", 30) + pad("JSON file", 30)
                + "store/raw  store vs JSON",
        ]
        for (name, seconds) in rows where seconds.count == 3 {
            let versusRaw = seconds[1] / seconds[0]
            let versusJSON = seconds[2] / seconds[0]
            lines.append(pad(name, 44) + pad(rate(seconds[0]), 30) + pad(rate(seconds[1]), 30)
                         + pad(rate(seconds[2]), 30) + String(format: "%5.2f×     %7.1f× faster", versusRaw, versusJSON))
        }
        return lines.joined(separator: "\n")
    }
}
