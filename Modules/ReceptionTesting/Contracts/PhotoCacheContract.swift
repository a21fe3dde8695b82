import Foundation
import ReceptionCore

/// What a `PhotoCaching` implementation is tested through.
public struct PhotoCacheFixture: Sendable, CustomStringConvertible {
    /// The implementation's name, for test output.
    public let name: String
    /// Opens the cache of a scope with a byte budget over the fixture's storage; every call is a relaunch.
    public let open: @Sendable (StorageScope, Int) throws -> any PhotoCaching
    /// Damages what `cache` keeps for an attachment ID as a truncated file would be.
    public let damage: @Sendable (any PhotoCaching, String) throws -> Void

    /// Makes a fixture.
    public init(
        name: String, open: @escaping @Sendable (StorageScope, Int) throws -> any PhotoCaching,
        damage: @escaping @Sendable (any PhotoCaching, String) throws -> Void
    ) {
        self.name = name
        self.open = open
        self.damage = damage
    }

    public var description: String { name }

    /// The in-memory fake over fresh storage.
    public static func inMemory() -> PhotoCacheFixture {
        let first = Locked<InMemoryPhotoCache?>(nil)
        return PhotoCacheFixture(
            name: "InMemoryPhotoCache",
            open: { scope, budget in
                first.withLock { existing in
                    if let existing { return existing.reopened(scope: scope, byteBudget: budget) }
                    let cache = InMemoryPhotoCache(scope: scope, byteBudget: budget)
                    existing = cache
                    return cache
                }
            },
            damage: { cache, id in (cache as? InMemoryPhotoCache)?.damage(id) })
    }
}

/// The `PhotoCaching` contract (issue 39; Docs/MessageCache.md "The photo cache"), one check per rule.
public enum PhotoCacheContract {
    static let scope = StorageScope(appID: "app_contractAAAAAAAAAAAAAAAAAA", generation: "-gen1")
    static let nextScope = StorageScope(appID: scope.appID, generation: "-gen2")
    static let otherApp = StorageScope(appID: "app_otherBBBBBBBBBBBBBBBBBBBBB", generation: "-gen1")
    /// Room for a few photos of `size` bytes.
    static let budget = 64 * 1024
    /// The size of a test photo, in bytes.
    public static let size = 10_000

    /// Distinct bytes per photo.
    public static func photo(_ index: Int, size: Int = PhotoCacheContract.size) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index &* 101 &+ 1) })
    }

    /// Every check, for `@Test(arguments:)`.
    public static let checks: [ContractCheck<PhotoCacheFixture>] = keepingChecks + evictionChecks + scopeChecks

    static let keepingChecks: [ContractCheck<PhotoCacheFixture>] = [
        ContractCheck("a stored photo reads back, also after reopening; an unknown ID is a miss") { fixture in
            let cache = try fixture.open(scope, budget)
            try require(cache.photo(for: "att_1") == nil, "an empty cache had a photo")
            cache.store(photo(1), for: "att_1")
            try require(cache.photo(for: "att_1") == photo(1), "the photo did not read back")
            try require(try fixture.open(scope, budget).photo(for: "att_1") == photo(1), "lost on reopening")
            try require(cache.photo(for: "att_2") == nil, "an unknown ID was a hit")
        },
        ContractCheck("a second store of an ID replaces its bytes") { fixture in
            let cache = try fixture.open(scope, budget)
            cache.store(photo(1), for: "att_1")
            cache.store(photo(2, size: 500), for: "att_1")
            try require(try fixture.open(scope, budget).photo(for: "att_1") == photo(2, size: 500), "not replaced")
        },
        ContractCheck("hostile and look-alike IDs are kept apart and never meet another's bytes") { fixture in
            let ids = ["../../escape", "a/b", "..", ".", "x\u{0}y", "ÄÖ 👩‍💻", "CASE", "case", "index.json",
                       String(repeating: "z", count: 200)]
            let cache = try fixture.open(scope, budget * 4)
            for (index, id) in ids.enumerated() { cache.store(photo(index, size: 1000), for: id) }
            let reopened = try fixture.open(scope, budget * 4)
            for (index, id) in ids.enumerated() {
                try require(reopened.photo(for: id) == photo(index, size: 1000), "\(id.debugDescription) read wrong")
            }
            cache.store(photo(1), for: "")
            try require(cache.photo(for: "") == nil, "an empty ID was kept")
        },
        ContractCheck("a damaged photo is a miss, and storing it again brings it back") { fixture in
            let cache = try fixture.open(scope, budget)
            cache.store(photo(1), for: "att_1")
            cache.store(photo(2), for: "att_2")
            try fixture.damage(cache, "att_1")
            try require(cache.photo(for: "att_1") == nil, "a damaged photo was handed out")
            try require(cache.photo(for: "att_1") == nil, "a damaged photo came back")
            try require(cache.photo(for: "att_2") == photo(2), "a neighbour of the damaged photo went")
            cache.store(photo(1), for: "att_1")
            try require(try fixture.open(scope, budget).photo(for: "att_1") == photo(1), "not stored again")
        },
        ContractCheck("removeAll empties the cache, also after reopening, and it keeps working") { fixture in
            let cache = try fixture.open(scope, budget)
            cache.store(photo(1), for: "att_1")
            cache.removeAll()
            try require(cache.photo(for: "att_1") == nil, "a photo survived removeAll")
            try require(try fixture.open(scope, budget).photo(for: "att_1") == nil, "back after reopening")
            cache.store(photo(2), for: "att_2")
            try require(cache.photo(for: "att_2") == photo(2), "the cache stopped working after removeAll")
        },
    ]

    static let evictionChecks: [ContractCheck<PhotoCacheFixture>] = [
        ContractCheck("over the budget the least recently used goes first, reads counting as use") { fixture in
            // Room for three photos of `size` bytes.
            let room = size * 3
            let cache = try fixture.open(scope, room)
            for index in 1...3 { cache.store(photo(index), for: "att_\(index)") }
            try require(cache.photo(for: "att_1") != nil, "att_1 went before the budget was full")
            cache.store(photo(4), for: "att_4")
            let kept = (1...4).filter { cache.photo(for: "att_\($0)") != nil }
            try require(kept == [1, 3, 4], "kept \(kept), not the three most recently used [1, 3, 4]")
        },
        ContractCheck("the order of use survives reopening") { fixture in
            let room = size * 3
            let cache = try fixture.open(scope, room)
            for index in 1...3 { cache.store(photo(index), for: "att_\(index)") }
            _ = cache.photo(for: "att_1")
            let reopened = try fixture.open(scope, room)
            reopened.store(photo(4), for: "att_4")
            try require(reopened.photo(for: "att_2") == nil, "the least recently used survived a relaunch")
            try require(reopened.photo(for: "att_1") == photo(1), "the photo read before the relaunch went")
        },
        ContractCheck("a photo larger than the whole budget is not kept and evicts nothing") { fixture in
            let cache = try fixture.open(scope, size * 2)
            cache.store(photo(1), for: "att_1")
            cache.store(photo(9, size: size * 2 + 1), for: "att_big")
            try require(cache.photo(for: "att_big") == nil, "a photo over the budget was kept")
            try require(cache.photo(for: "att_1") == photo(1), "a photo over the budget evicted another")
        },
        ContractCheck("reopening with a smaller budget evicts down to it, least recently used first") { fixture in
            let cache = try fixture.open(scope, size * 3)
            for index in 1...3 { cache.store(photo(index), for: "att_\(index)") }
            _ = cache.photo(for: "att_1")
            let smaller = try fixture.open(scope, size)
            try require(smaller.photo(for: "att_1") == photo(1), "the most recently used went")
            try require(smaller.photo(for: "att_2") == nil && smaller.photo(for: "att_3") == nil, "over the budget")
        },
    ]

    static let scopeChecks: [ContractCheck<PhotoCacheFixture>] = [
        ContractCheck("a new scope of the App ID starts empty and removes the old one's; another App ID keeps its")
        { fixture in
            try fixture.open(otherApp, budget).store(photo(7), for: "att_1")
            try fixture.open(scope, budget).store(photo(1), for: "att_1")
            try require(try fixture.open(nextScope, budget).photo(for: "att_1") == nil, "the next scope saw a photo")
            try require(try fixture.open(scope, budget).photo(for: "att_1") == nil, "the old scope's photo is back")
            try require(try fixture.open(otherApp, budget).photo(for: "att_1") == photo(7), "another App ID lost it")
        },
    ]
}
