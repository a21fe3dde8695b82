import Digest
import Foundation

/// The bookkeeping of a photo cache (`PhotoCaching`): which attachment IDs it keeps, their sizes and digests, and
/// when each was last used, by a counter rather than a clock or a file's timestamp (those are a required-reason API
/// on Apple platforms, and a clock set back would reorder the cache). The least recently used photo is evicted
/// first. The file cache and the in-memory fake both keep one, so the eviction rule is written once and the shared
/// contract (`PhotoCacheContract`) holds both to it.
package struct PhotoCacheIndex: Sendable, Equatable, Codable {
    /// One kept photo.
    package struct Entry: Sendable, Equatable, Codable {
        /// Its size in bytes.
        package var bytes: Int
        /// The SHA-256 of its bytes, as lowercase hex: bytes that no longer match are damaged, a miss.
        package var sha256: String
        /// The counter's value when it was last stored or read: a larger value is more recent.
        package var use: UInt64
    }

    /// The kept photos by attachment ID.
    package private(set) var entries: [String: Entry] = [:]
    /// The last value handed out to a use.
    package private(set) var counter: UInt64 = 0

    /// An empty index.
    @_optimize(size) package init() {}

    /// Attachment IDs longer than this (UTF-8 bytes) are not kept: the service's are about 30.
    static let maximumIDBytes = 256

    /// Whether a cache keeps `attachmentID`: not empty and at most `maximumIDBytes` bytes of UTF-8.
    @_optimize(size) package static func accepts(_ attachmentID: String) -> Bool {
        !attachmentID.isEmpty && attachmentID.utf8.count <= maximumIDBytes
    }

    /// The bytes of every kept photo.
    @_optimize(size) package var totalBytes: Int { entries.values.reduce(0) { $0 + $1.bytes } }

    /// Whether `attachmentID` was the last photo used (a read of it changes nothing worth writing).
    @_optimize(size) package func isMostRecent(_ attachmentID: String) -> Bool {
        entries[attachmentID]?.use == counter
    }

    /// Marks `attachmentID` as just used; returns its entry, or `nil` when it is not kept.
    @_optimize(size) package mutating func use(_ attachmentID: String) -> Entry? {
        guard entries[attachmentID] != nil else { return nil }
        counter += 1
        entries[attachmentID]?.use = counter
        return entries[attachmentID]
    }

    /// Records `bytes` bytes with digest `sha256` for `attachmentID` as the most recently used, then evicts the
    /// least recently used others until the total is within `budget`. Returns the IDs evicted (never
    /// `attachmentID`). Bytes over the whole budget are not recorded: the ID's earlier entry goes and nothing else,
    /// and `attachmentID` is returned among the evicted so its old copy is deleted.
    @_optimize(size) package mutating func insert(
        _ attachmentID: String, bytes: Int, sha256: String, budget: Int
    ) -> (kept: Bool, evicted: [String]) {
        guard bytes >= 0, bytes <= budget else {
            let had = entries.removeValue(forKey: attachmentID) != nil
            return (false, had ? [attachmentID] : [])
        }
        counter += 1
        entries[attachmentID] = Entry(bytes: bytes, sha256: sha256, use: counter)
        return (true, trim(to: budget))
    }

    /// Evicts the least recently used photos until the total is within `budget`; returns their IDs, oldest first.
    /// The most recent photo is evicted last, so after `insert` it stays (it fits the budget alone).
    @_optimize(size) package mutating func trim(to budget: Int) -> [String] {
        var total = totalBytes
        guard total > budget else { return [] }
        var evicted: [String] = []
        let byUse = Array(entries)
        for position in stableOrder(count: byUse.count, by: { byUse[$0].value.use < byUse[$1].value.use }) {
            let (id, entry) = byUse[position]
            guard total > budget else { break }
            entries[id] = nil
            total -= entry.bytes
            evicted.append(id)
        }
        return evicted
    }

    /// Forgets `attachmentID`.
    @_optimize(size) package mutating func remove(_ attachmentID: String) {
        entries[attachmentID] = nil
    }

    /// Whether a decoded index is one this code could have written: at most `maximumEntries` entries, each of a
    /// size in `0...maximumBytes`, a 64-digit lowercase hex digest, and a use no later than the counter. A file that
    /// fails this is damaged or hostile and is not trusted at all.
    @_optimize(size) package func isPlausible(maximumEntries: Int, maximumBytes: Int) -> Bool {
        guard entries.count <= maximumEntries else { return false }
        // Loops, not `allSatisfy` closures (Docs/Footprint.md, "Loops for one-off closures").
        for entry in entries.values {
            guard (0...maximumBytes).contains(entry.bytes), entry.use <= counter, entry.sha256.utf8.count == 64
            else { return false }
            for byte in entry.sha256.utf8 where !((0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)) {
                return false
            }
        }
        return true
    }

    /// The SHA-256 of `data` as lowercase hex, as entries record it.
    @_optimize(size) package static func digest(of data: Data) -> String {
        var hasher = SHA256()
        data.withUnsafeBytes { hasher.update($0) }
        return Hex.encode(hasher.finalize())
    }

    /// The SHA-256 of `text`'s UTF-8 as lowercase hex: a file name that no identifier can steer (`../x`, `a/b`, a
    /// NUL, names that differ only in case all become distinct, fixed-length names).
    @_optimize(size) package static func digest(of text: String) -> String {
        Hex.encode(SHA256.hash(Array(text.utf8)))
    }
}

extension PhotoCacheIndex {
    @_optimize(size) package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        entries = try c.decode([String: Entry].self, forKey: "entries")
        counter = try c.decode(UInt64.self, forKey: "counter")
    }

    @_optimize(size) package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(entries, forKey: "entries")
        try c.encode(counter, forKey: "counter")
    }
}

extension PhotoCacheIndex.Entry {
    @_optimize(size) package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        bytes = try c.decode(Int.self, forKey: "bytes")
        sha256 = try c.decode(String.self, forKey: "sha256")
        use = try c.decode(UInt64.self, forKey: "use")
    }

    @_optimize(size) package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(bytes, forKey: "bytes")
        try c.encode(sha256, forKey: "sha256")
        try c.encode(use, forKey: "use")
    }
}
