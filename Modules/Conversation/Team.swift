import Foundation
import ReceptionCore

/// The session's team (spec 3.6, 3.7, 3.18, 7.17): the `TeamRoster` with its photos, a version observers compare
/// instead of photo bytes, and the photo downloads.
///
/// A link whose download failed is not tried again until a newer one arrives (links are short-lived, and a 403
/// means this one expired). A chat reset clears everything and moves the epoch, so a download that started before
/// it is never written.
final class Team {
    /// How an answer changed the team.
    enum Change: Sendable, Equatable {
        /// Nothing changed.
        case none
        /// Only the photos wanted changed: fetch, nothing to save.
        case photosWanted
        /// Names or photos changed: save, publish and fetch.
        case profiles
    }

    /// The map with its photos.
    private(set) var roster = TeamRoster()
    /// Bumped whenever the profiles change.
    private(set) var version = 0
    /// Bumped by a chat reset; a download carries the epoch it started in.
    private(set) var epoch = 0
    private var downloads = KeyedList<Task<Void, Never>>()
    /// Per member, the link whose download failed, as its absolute string: a `[String: String]` shares the code the
    /// SDK's other string tables compile, where a dictionary of `URL`s compiled its own (Docs/Footprint.md).
    private var failedLinks: [String: String] = [:]

    /// Spec 7.17: the cached names and photos, restored at launch (visible before any answer).
    @_optimize(size) func restore(_ profiles: [TeamProfile]) {
        roster = TeamRoster(restoring: profiles)
        version += 1
    }

    /// Spec 3.6 / 3.7: a history answer replaces the map (`replacing`), a page merges into it.
    @inline(never) @_optimize(size) func apply(_ members: [TeamMember]?, replacing: Bool) -> Change {
        let before = roster
        if replacing {
            roster.replace(with: members ?? [])
        } else if let members {
            roster.merge(members)
        }
        guard roster != before else { return .none }
        guard roster.profiles != before.profiles else { return .photosWanted }
        version += 1
        return .profiles
    }

    /// The photos to download now: wanted, not downloading, and not under a link that already failed.
    @inline(never) @_optimize(size) var photosToFetch: [TeamRoster.PhotoRequest] {
        let wanted = roster.wanted.allValues
        return stableOrder(count: wanted.count) { wanted[$0].memberID < wanted[$1].memberID }.map { wanted[$0] }
            .filter { request in downloads[request.memberID] == nil && failedLinks[request.memberID] != request.url.absoluteString }
    }

    /// The engine started `task` to download `request`.
    @_optimize(size) func downloadStarted(_ request: TeamRoster.PhotoRequest, _ task: Task<Void, Never>) {
        downloads[request.memberID] = task
    }

    /// A download that started in `epoch` ended; returns whether it still counts (no reset since).
    @inline(never) @_optimize(size) func downloadEnded(_ request: TeamRoster.PhotoRequest, epoch: Int) -> Bool {
        guard epoch == self.epoch else { return false }
        downloads[request.memberID] = nil
        return true
    }

    /// A photo arrived; returns whether the profiles changed (save and publish).
    @inline(never) @_optimize(size) func photoLoaded(_ request: TeamRoster.PhotoRequest, data: Data) -> Bool {
        failedLinks[request.memberID] = nil
        guard roster.photoLoaded(request, data: data) else { return false }
        version += 1
        return true
    }

    /// A download failed (`tooLarge`: the service answered `image_too_large`, so the key is not fetched again
    /// under any link); returns whether a newer link is already wanted.
    @inline(never) @_optimize(size) func photoFailed(_ request: TeamRoster.PhotoRequest, tooLarge: Bool) -> Bool {
        if tooLarge {
            roster.refuse(request)
            return false
        }
        failedLinks[request.memberID] = request.url.absoluteString
        return roster.wanted[request.memberID].map { $0.url != request.url } == true
    }

    /// Spec 7.12 / 7.15: a chat reset (and the end of the session) clears the team and cancels the downloads.
    @inline(never) @_optimize(size) func clear() {
        epoch += 1
        cancelDownloads()
        failedLinks = [:]
        roster = TeamRoster()
        version += 1
    }

    /// Cancels every download (the session ended).
    @_optimize(size) func cancelDownloads() {
        for task in downloads.allValues { task.cancel() }
        downloads.removeAll()
    }
}
