import Foundation
@testable import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// One contract, two implementations: the fake hosts and the engine's tests use, and the file cache the SDK ships.
@Suite struct PhotoCacheContractTests {
    @Test(arguments: PhotoCacheContract.checks)
    func inMemoryPhotoCache(_ check: ContractCheck<PhotoCacheFixture>) async throws {
        try await check.run(.inMemory())
    }

    @Test(arguments: PhotoCacheContract.checks)
    func filePhotoCache(_ check: ContractCheck<PhotoCacheFixture>) async throws {
        try await check.run(.files())
    }
}

extension PhotoCacheFixture {
    /// `FilePhotoCache` on real files in a fresh temporary data folder; damage truncates the photo's file.
    static func files() -> PhotoCacheFixture {
        let directory = TemporaryDirectory()
        return PhotoCacheFixture(
            name: "FilePhotoCache",
            open: { scope, budget in
                try FilePhotoCache(directory: directory.url, scope: scope, byteBudget: budget, logger: .silent)
            },
            damage: { cache, id in
                guard let file = (cache as? FilePhotoCache)?.fileURL(id) else { throw ContractFailure("not a file cache") }
                let bytes = try Data(contentsOf: file)
                try bytes.prefix(bytes.count / 2).write(to: file)
            })
    }
}
