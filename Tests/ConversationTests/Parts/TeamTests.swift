import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// `Team` alone (spec 3.6, 3.7, 3.18, 7.17): the roster's version, its downloads and the reset epoch.
@Suite("TeamTests")
struct TeamTests {
    private static let link = URL(string: "https://files.test/team/a?sig=1")!
    private static let newLink = URL(string: "https://files.test/team/a?sig=2")!
    private static let anna = TeamMember(id: "tm_1", name: "Anna", photoUrl: link.absoluteString, photoId: "ph_1")

    @Test("an answer that changes names bumps the version; the same answer again changes nothing")
    func versions() {
        let team = Team()
        let first = team.apply([Self.anna], replacing: true)
        #expect(first == .profiles)
        #expect(team.version == 1)
        let again = team.apply([Self.anna], replacing: true)
        #expect(again == .none)
        #expect(team.version == 1)
        let absentPage = team.apply(nil, replacing: false)
        #expect(absentPage == .none, "a page without a team leaves the map")
    }

    @Test("a wanted photo is fetched once; a failed link waits for a newer one")
    func failedLink() throws {
        let team = Team()
        _ = team.apply([Self.anna], replacing: true)
        let request = try #require(team.photosToFetch.first)
        team.downloadStarted(request, Task {})
        #expect(team.photosToFetch.isEmpty, "already downloading")
        let counts = team.downloadEnded(request, epoch: team.epoch)
        #expect(counts)
        let retryNow = team.photoFailed(request, tooLarge: false)
        #expect(!retryNow)
        #expect(team.photosToFetch.isEmpty, "the expired link is not tried again")
        var refreshed = Self.anna
        refreshed.photoUrl = Self.newLink.absoluteString
        _ = team.apply([refreshed], replacing: false)
        #expect(team.photosToFetch.map(\.url) == [Self.newLink])
    }

    @Test("a photo arriving after a reset is dropped by the epoch")
    func resetDropsLatePhoto() throws {
        let team = Team()
        _ = team.apply([Self.anna], replacing: true)
        let request = try #require(team.photosToFetch.first)
        let epoch = team.epoch
        team.downloadStarted(request, Task {})
        team.clear()
        let counts = team.downloadEnded(request, epoch: epoch)
        #expect(!counts)
        #expect(team.roster.profiles.isEmpty)
    }

    @Test("a loaded photo changes the profiles; one too large is never fetched again under its key")
    func loadedAndRefused() throws {
        let team = Team()
        _ = team.apply([Self.anna], replacing: true)
        let request = try #require(team.photosToFetch.first)
        let versionBefore = team.version
        _ = team.downloadEnded(request, epoch: team.epoch)
        let changed = team.photoLoaded(request, data: Data([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(changed)
        #expect(team.version == versionBefore + 1)
        #expect(team.roster["tm_1"]?.photo != nil)

        let other = Team()
        _ = other.apply([Self.anna], replacing: true)
        let big = try #require(other.photosToFetch.first)
        let retry = other.photoFailed(big, tooLarge: true)
        #expect(!retry)
        var refreshed = Self.anna
        refreshed.photoUrl = Self.newLink.absoluteString
        _ = other.apply([refreshed], replacing: false)
        #expect(other.photosToFetch.isEmpty, "the key ph_1 is refused whatever the link")
    }
}
