import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Spec 3.6, 3.7, 4.5 and 7.17: the team map, its photos and the team profile cache.
@Suite("TeamProfilesTests")
struct TeamProfilesTests {
    static func link(_ name: String, signature: Int = 1) -> URL {
        URL(string: "https://files.test/team/\(name)?sig=\(signature)")!
    }

    static func member(_ id: String, _ name: String, photoId: String? = nil, link: URL? = nil) -> TeamMember {
        TeamMember(id: id, name: name, photoUrl: link?.absoluteString, photoId: photoId)
    }

    static let annaPhoto = Data([0xFF, 0xD8, 0x01, 0xFF, 0xD9])
    static let annaNewPhoto = Data([0xFF, 0xD8, 0x02, 0xFF, 0xD9])

    /// An engine whose history answers carry `team`, opened so the history loads.
    func openedEngine(team: [TeamMember], store: InMemoryMessageStore? = nil) async -> EngineHarness {
        let h = await EngineHarness(store: store, conversationExists: true)
        await h.service.setTeam(team)
        await h.service.agentReply("hello")
        return h
    }

    func profiles(_ h: EngineHarness) async -> [TeamProfile] { await h.snapshot.team }

    // MARK: The roster

    @Test func aReSignedLinkWithTheSamePhotoIdIsNotDownloadedAgain() {
        var roster = TeamRoster()
        roster.replace(with: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a"))])
        guard let request = roster.wanted["tm_1"] else {
            Issue.record("no photo is wanted")
            return
        }
        #expect(request.key == "ph_1")
        let kept = roster.photoLoaded(request, data: Self.annaPhoto)
        #expect(kept)
        roster.replace(with: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a", signature: 2))])
        #expect(roster.wanted.isEmpty, "the photo under ph_1 is cached")
        #expect(roster["tm_1"]?.photo == Self.annaPhoto)
    }

    @Test func aChangedPhotoStaysUntilItsReplacementLoadsAndNoPhotoRemovesIt() throws {
        var roster = TeamRoster(restoring: [TeamProfile(id: "tm_1", name: "Anna", photoKey: "ph_1", photo: Self.annaPhoto)])
        roster.merge([Self.member("tm_1", "Anna", photoId: "ph_2", link: Self.link("a2"))])
        #expect(roster["tm_1"]?.photo == Self.annaPhoto, "kept until the replacement loads")
        let request = try #require(roster.wanted["tm_1"])
        let kept = roster.photoLoaded(request, data: Self.annaNewPhoto)
        #expect(kept)
        #expect(roster["tm_1"]?.photoKey == "ph_2")
        #expect(roster["tm_1"]?.photo == Self.annaNewPhoto)
        // A late answer for a key no longer wanted is dropped.
        let late = roster.photoLoaded(request, data: Self.annaPhoto)
        #expect(!late)
        roster.merge([Self.member("tm_1", "Anna")])
        #expect(roster["tm_1"]?.photo == nil && roster["tm_1"]?.photoKey == nil, "no photo any more")
    }

    @Test func withoutAPhotoIdTheLinkIsTheKey() throws {
        var roster = TeamRoster()
        roster.replace(with: [Self.member("tm_1", "Anna", link: Self.link("a"))])
        let request = try #require(roster.wanted["tm_1"])
        #expect(request.key == Self.link("a").absoluteString)
        let kept = roster.photoLoaded(request, data: Self.annaPhoto)
        #expect(kept)
        roster.replace(with: [Self.member("tm_1", "Anna", link: Self.link("a", signature: 2))])
        #expect(roster.wanted["tm_1"] != nil, "an older service re-signs: a new link is a new key")
        // And a legacy payload without photoId decodes.
        let legacy = try JSONDecoder().decode(
            TeamMember.self, from: Data(#"{"id":"tm_9","name":"Old","photoUrl":null}"#.utf8))
        #expect(legacy.photoCacheKey == nil)
    }

    @Test func aHistoryReplacesTheMapAndAPageMerges() {
        var roster = TeamRoster()
        roster.replace(with: [Self.member("tm_1", "Anna"), Self.member("tm_2", "Ben")])
        roster.merge([Self.member("tm_2", "Benjamin"), Self.member("tm_3", "Cleo")])
        #expect(roster.profiles.map(\.name) == ["Anna", "Benjamin", "Cleo"], "newest wins, new members appended")
        roster.replace(with: [Self.member("tm_3", "Cleo")])
        #expect(roster.profiles.map(\.id) == ["tm_3"], "members absent from a history answer are dropped")
        roster.merge((0..<60).map { Self.member("m\($0)", "M\($0)") })
        #expect(roster.profiles.count == 50)
        #expect(roster.profiles.first?.id == "m10", "beyond 50 the oldest go")
        roster.replace(with: [Self.member("", "No ID"), Self.member("tm_1", "A"), Self.member("tm_1", "Anna")])
        #expect(roster.profiles.map(\.name) == ["Anna"], "no empty IDs; the last entry of an ID wins")
    }

    @Test("seed 001: the chat shows the teammate's first name: the display name's first word, in any script", arguments: [
        ("Mia Wong", "Mia"), ("Cher", "Cher"), ("  Jean-Luc Picard ", "Jean-Luc"), ("Zoë\tMüller", "Zoë"),
        ("山田\u{3000}太郎", "山田"), ("李小龍", "李小龍"), ("محمد علي", "محمد"), ("Ольга Петрова", "Ольга"),
        ("श्रेया\u{00A0}शर्मा", "श्रेया"), ("Anna\nLee", "Anna"), ("", ""),
    ])
    func firstNames(displayName: String, firstName: String) throws {
        var roster = TeamRoster()
        roster.replace(with: [Self.member("tm_1", displayName)])
        #expect(roster["tm_1"]?.name == firstName)
        roster.merge([Self.member("tm_1", displayName + " ")])
        #expect(roster["tm_1"]?.name == firstName, "a page merges first names too")
        // A cache written with whole names shows first names from the launch on.
        let restored = TeamRoster(restoring: [TeamProfile(id: "tm_1", name: displayName)])
        #expect(restored["tm_1"]?.name == firstName)
        #expect(restored["tm_1"]?.initial == firstName.first.map { String($0).uppercased() } ?? "")
    }

    @Test func theCacheLimits() throws {
        let big = Data(count: 512 * 1024 + 1)
        let fits = Data(count: 512 * 1024)
        var roster = TeamRoster(restoring: [
            TeamProfile(id: "a", name: "A", photoKey: "k", photo: big),
            TeamProfile(id: "b", name: "B", photoKey: "k", photo: fits),
        ])
        #expect(roster["a"]?.photo == nil && roster["a"]?.name == "A", "a photo over 512 KiB is dropped, the name kept")
        #expect(roster["b"]?.photo == fits)
        #expect(TeamRoster(restoring: (0..<51).map { TeamProfile(id: "m\($0)", name: "M") }).profiles.isEmpty,
                "more than 50 entries: the cache is ignored")
        let eighteenPhotos = (0..<18).map { TeamProfile(id: "m\($0)", name: "M", photoKey: "k\($0)", photo: fits) }
        #expect(TeamRoster(restoring: eighteenPhotos).profiles.isEmpty, "over 9 MiB: the cache is ignored")
        let thirteen = TeamRoster(restoring: Array(eighteenPhotos.prefix(13)))
        #expect(thirteen.profiles.count == 13)
        #expect(thirteen.profiles.compactMap(\.photo).count == 12, "all photos together stay within 6 MiB")
        roster.merge([Self.member("c", "C", photoId: "pc", link: Self.link("c"))])
        let request = try #require(roster.wanted["c"])
        let kept = roster.photoLoaded(request, data: big)
        #expect(!kept, "a download over 512 KiB is not kept")
    }

    // MARK: The engine

    @Test func namesAndPhotosArriveWithTheHistoryAndArePersisted() async throws {
        let h = await openedEngine(team: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a")),
                                          Self.member("tm_2", "Ben")])
        await h.service.setTeamPhoto(Self.annaPhoto, at: Self.link("a"))
        await h.open()
        #expect(await eventually { await profiles(h).first?.photo == Self.annaPhoto })
        #expect(await profiles(h).map(\.name) == ["Anna", "Ben"])
        #expect(try h.store.teamProfiles().first?.photo == Self.annaPhoto, "the cache holds the photo")
        #expect(await h.service.count("teamPhoto") == 1)

        // A relaunch shows names and photos before any answer.
        let relaunched = await h.relaunched()
        #expect(await relaunched.snapshot.team.map(\.name) == ["Anna", "Ben"])
        #expect(await relaunched.snapshot.team.first?.photo == Self.annaPhoto)
        // The re-signed link of the next history answer is not downloaded again.
        await h.service.setTeam([Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a", signature: 2)),
                                 Self.member("tm_2", "Ben")])
        await relaunched.open()
        #expect(await eventually { await relaunched.service.count("history") >= 2 })
        await settle()
        #expect(await h.service.count("teamPhoto") == 1)
    }

    @Test func anExpiredLinkIsRetriedOnlyWithARefreshedOne() async throws {
        let h = await openedEngine(team: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a"))])
        await h.open()
        #expect(await eventually { await h.service.count("teamPhoto") == 1 })
        await settle()
        #expect(await profiles(h).first?.photo == nil, "403: the link expired")
        // The same expired link in a page is not tried again; a refreshed one is.
        await h.service.setTeamPhoto(Self.annaPhoto, at: Self.link("a", signature: 2))
        await h.engine.applyTeam([Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a"))], replacing: false)
        await settle()
        #expect(await h.service.count("teamPhoto") == 1)
        await h.engine.applyTeam([Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a", signature: 2))],
                                 replacing: false)
        #expect(await eventually { await profiles(h).first?.photo == Self.annaPhoto })
        #expect(await h.service.count("teamPhoto") == 2)
    }

    @Test func aChatResetClearsTheTeamAndALateDownloadWritesNothing() async throws {
        let h = await openedEngine(team: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a"))])
        await h.service.setTeamPhoto(Self.annaPhoto, at: Self.link("a"))
        await h.service.hold("teamPhoto")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("teamPhoto") == 1 })
        #expect(await profiles(h).map(\.name) == ["Anna"])
        // The team reset the support chat: the reloaded history has no team any more.
        await h.service.setTeam(nil)
        await h.engine.chatReset(revision: 4)
        await h.service.release("teamPhoto")
        await settle()
        #expect(await profiles(h).isEmpty)
        #expect(try h.store.teamProfiles().isEmpty, "a cleared cache rejects the late photo")
    }

    @Test func aPhotoOfTheChatBeforeAResetIsNotTakenForTheSameKeyAfterIt() async throws {
        // Same member and key before and after the reset; only the link differs, and the old link's bytes are old.
        let h = await openedEngine(team: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a"))])
        await h.service.setTeamPhoto(Self.annaPhoto, at: Self.link("a"))
        await h.service.setTeamPhoto(Self.annaNewPhoto, at: Self.link("a", signature: 2))
        await h.service.hold("teamPhoto")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("teamPhoto") == 1 })
        await h.engine.chatReset(revision: 4)
        // The next history answer of the reset chat names the same member with the same photo and a new link.
        await h.engine.applyTeam(
            [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a", signature: 2))], replacing: true)
        #expect(await eventually { await h.service.waitingCount("teamPhoto") == 2 }, "the reloaded team asks again")
        await h.service.release("teamPhoto")
        #expect(await eventually { await profiles(h).first?.photo != nil })
        await settle()
        #expect(await profiles(h).first?.photo == Self.annaNewPhoto, "the download started before the reset was dropped")
    }

    @Test func aPhotoBeyondTheLimitsIsNotDownloadedAgainAndAgain() async throws {
        let big = Data(count: 512 * 1024)
        let members = (0..<13).map { Self.member("m\($0)", "M\($0)", photoId: "p\($0)", link: Self.link("m\($0)")) }
        let h = await openedEngine(team: members)
        for index in 0..<13 { await h.service.setTeamPhoto(big, at: Self.link("m\(index)")) }
        await h.open()
        #expect(await eventually { await h.service.count("teamPhoto") == 13 })
        await settle()
        #expect(await profiles(h).compactMap(\.photo).count == 12, "6 MiB in all")
        // Every later answer re-signs the links; the refused photo is not fetched again.
        await h.service.setTeam(members.map { Self.member($0.id, $0.name, photoId: $0.photoId, link: Self.link($0.id, signature: 9)) })
        for _ in 0..<3 {
            await h.engine.applyTeam(await h.service.team, replacing: true)
            await settle()
        }
        #expect(await h.service.count("teamPhoto") == 13)
        // A photo the link serves over 512 KiB (`image_too_large`) is refused for its key too.
        await h.service.fail("teamPhoto", with: ReceptionError(code: "image_too_large", status: 200))
        await h.engine.applyTeam([Self.member("x", "X", photoId: "px", link: Self.link("x"))], replacing: false)
        #expect(await eventually { await h.service.count("teamPhoto") == 14 })
        await settle()
        await h.engine.applyTeam([Self.member("x", "X", photoId: "px", link: Self.link("x", signature: 2))], replacing: false)
        await settle()
        #expect(await h.service.count("teamPhoto") == 14)
    }

    @Test func aRemovalAndADroppedMemberStayGoneAfterARelaunch() async throws {
        let h = await openedEngine(team: [Self.member("tm_1", "Anna", photoId: "ph_1", link: Self.link("a")),
                                          Self.member("tm_2", "Ben")])
        await h.service.setTeamPhoto(Self.annaPhoto, at: Self.link("a"))
        await h.open()
        #expect(await eventually { await profiles(h).first?.photo == Self.annaPhoto })
        // The service's team changes too: a page of the opening catch-up still in flight (they carry the team and
        // merge it) then names the new team, as the real service's would, instead of bringing Ben back.
        await h.service.setTeam([Self.member("tm_1", "Anna")])
        await h.engine.applyTeam([Self.member("tm_1", "Anna")], replacing: true)
        await settle()
        let relaunched = await h.relaunched()
        let restored = await relaunched.snapshot.team
        #expect(restored.map(\.id) == ["tm_1"], "a refreshed team drops removed members from the cache")
        #expect(restored.first?.photo == nil, "a removed photo stays removed")
    }

    @MainActor
    @Test func anUnknownAuthorHasNoProfileAndAnEmptyNameNoInitial() async throws {
        let h = await openedEngine(team: [Self.member("tm_1", "")])
        await h.service.inject(Message(id: "a1", seq: 90, sender: .agent, text: "from tm_1", createdAt: Date(), authorId: "tm_1"))
        await h.service.inject(Message(id: "a2", seq: 91, sender: .agent, text: "from nobody", createdAt: Date(), authorId: "tm_9"))
        let model = ChatModel(engine: h.engine)
        await model.connect()
        await h.open()
        var ready = false
        for _ in 0..<5_000 where !ready {
            await model.refresh()
            ready = model.messages.count >= 3 && !model.team.isEmpty
            await Task.yield()
        }
        #expect(ready)
        let known = try #require(model.messages.first { $0.text == "from tm_1" })
        let unknown = try #require(model.messages.first { $0.text == "from nobody" })
        #expect(model.author(of: known)?.initial == "", "an empty name has no initial")
        #expect(model.author(of: unknown) == nil, "spec 7.24: an unknown author gets no avatar")
    }
}
